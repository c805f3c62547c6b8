// Fire times in real IANA zones (decisions.md §14): a local time a daylight-saving change skips
// never fires, one it repeats fires once, nothing else is missed or doubled. Checked against
// an oracle that walks the wall clock minute by minute around every transition of 2026 in
// 22 zones, for hourly, daily-at-02:30 and every-minute expressions, and over the whole year
// for the daily one.
import { describe, expect, test } from 'vitest';
import { FireTimes, inZone, ruleProblems } from '../../../src/modules/scheduler/fire-times.js';

const ZONES = [
  'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Africa/Cairo', 'Asia/Kolkata',
  'Europe/London', 'Europe/Lisbon', 'America/Los_Angeles', 'America/Chicago', 'America/Havana', 'America/St_Johns',
  'Australia/Sydney', 'Australia/Adelaide', 'Pacific/Auckland', 'Pacific/Chatham', 'America/Halifax', 'Asia/Jerusalem',
  'Asia/Gaza', 'Europe/Dublin', 'America/Mexico_City', 'UTC',
];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_END = Date.parse('2027-01-01T00:00:00Z');

const formats = new Map<string, Intl.DateTimeFormat>();
function wallParts(at: number, zone: string) {
  let format = formats.get(zone);
  if (!format) formats.set(zone, (format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  const parts = Object.fromEntries(
    format
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { key: `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** The zone's offset changes in 2026, found hour by hour and pinned to the minute. */
function transitions(zone: string): number[] {
  const offset = (at: number) => {
    const w = wallParts(at, zone);
    return Date.parse(`${w.key.replace(' ', 'T')}:00Z`) - at;
  };
  const found: number[] = [];
  let before = offset(YEAR_START);
  for (let at = YEAR_START; at < YEAR_END; at += 6 * HOUR) {
    const after = offset(at + 6 * HOUR);
    if (after !== before) {
      let t = at;
      while (offset(t) === before) t += MINUTE;
      found.push(t);
    }
    before = after;
  }
  return found;
}

const CRONS: Record<string, (w: { hour: number; minute: number }) => boolean> = {
  '0 * * * *': (w) => w.minute === 0,
  '30 2 * * *': (w) => w.hour === 2 && w.minute === 30,
  '* * * * *': () => true,
};

/** The oracle: every instant whose wall-clock minute matches and was not shown before (each local minute fires at most once). */
function expected(cron: string, zone: string, from: number, until: number): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  // Start three hours early, so a repeat of a minute shown before the window is recognised.
  for (let at = from - 3 * HOUR; at <= until; at += MINUTE) {
    const w = wallParts(at, zone);
    const first = !seen.has(w.key);
    seen.add(w.key);
    if (at > from && first && CRONS[cron]!(w)) out.push(at);
  }
  return out;
}

describe('the rules of a schedule', () => {
  test('five fields only, a real zone, a valid expression; each problem names its field', () => {
    expect(ruleProblems({ cron: '*/5 * * * *', timezone: 'Europe/Berlin' })).toEqual([]);
    expect(ruleProblems({ cron: '0 0 * * * *', timezone: 'UTC' })).toEqual([{ path: 'body.cron', message: expect.stringContaining('seconds field') }]);
    expect(ruleProblems({ cron: '* * * *', timezone: 'UTC' })).toEqual([{ path: 'body.cron', message: expect.stringContaining('five fields') }]);
    expect(ruleProblems({ cron: '@daily', timezone: 'UTC' })[0]?.path).toBe('body.cron');
    expect(ruleProblems({ cron: '61 * * * *', timezone: 'UTC' })).toEqual([{ path: 'body.cron', message: expect.stringContaining('minute') }]);
    expect(ruleProblems({ cron: '* * * * *', timezone: 'Mars/Olympus' })).toEqual([{ path: 'body.timezone', message: expect.stringContaining('IANA') }]);
    for (const cron of ['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6,9,11 *']) {
      expect(ruleProblems({ cron, timezone: 'UTC' })).toEqual([{ path: 'body.cron', message: expect.stringContaining('never fires') }]);
    }
    expect(ruleProblems({ cron: '0 0 29 2 *', timezone: 'Asia/Tokyo' })).toEqual([]);
  });

  test('times read in the zone, with its offset', () => {
    const daily = new FireTimes({ cron: '30 2 * * *', timezone: 'Europe/Berlin' });
    const spring = daily.upcoming(Date.parse('2026-03-27T00:00:00Z'), 4).map((t) => inZone(t, 'Europe/Berlin'));
    // 29 March 02:30 does not exist in Berlin: no fire that day, and none moved to 03:00.
    expect(spring).toEqual(['2026-03-27T02:30:00+01:00', '2026-03-28T02:30:00+01:00', '2026-03-30T02:30:00+02:00', '2026-03-31T02:30:00+02:00']);
    const autumn = daily.upcoming(Date.parse('2026-10-24T00:00:00Z'), 3).map((t) => inZone(t, 'Europe/Berlin'));
    // 25 October 02:30 happens twice: it fires once, on the first pass (summer time).
    expect(autumn).toEqual(['2026-10-24T02:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00']);
    expect(inZone(Date.parse('2026-06-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-06-01T17:30:00+05:30');
    expect(inZone(Date.parse('2026-06-01T12:00:00Z'), 'UTC')).toBe('2026-06-01T12:00:00+00:00');
    expect(() => new FireTimes({ cron: '0 0 30 2 *', timezone: 'UTC' })).toThrow(/never fires/);
  });
});

describe('a simulated year in 22 zones (two without changes, one that abolished them)', () => {
  test.each(ZONES)('%s: minute by minute around every transition, and the whole year daily', (zone) => {
    const changes = transitions(zone);
    if (!['UTC', 'Asia/Kolkata', 'America/Mexico_City'].includes(zone)) expect(changes.length, `${zone} has daylight-saving changes in 2026`).toBeGreaterThan(0);
    for (const change of changes) {
      const from = change - 2 * HOUR;
      const until = change + 2 * HOUR;
      for (const cron of Object.keys(CRONS)) {
        const got = new FireTimes({ cron, timezone: zone }).between(from, until, 10_000).times;
        expect(got, `${cron} in ${zone} around ${new Date(change).toISOString()}`).toEqual(expected(cron, zone, from, until));
      }
    }
    // The whole year (the slow part) in the zones the issue names.
    for (const cron of ZONES.indexOf(zone) < 6 || changes.length === 0 ? ['30 2 * * *'] : []) {
      const got = new FireTimes({ cron, timezone: zone }).between(YEAR_START, YEAR_END, 100_000).times;
      expect(new Set(got).size).toBe(got.length);
      const wall = got.map((at) => wallParts(at, zone));
      expect(wall.every((w) => CRONS[cron]!(w))).toBe(true);
      // Each local day fires once; the count is the year's, less days whose 02:30 a change skipped.
      const keys = wall.map((w) => w.key.slice(0, 10));
      expect(new Set(keys).size).toBe(keys.length);
      const full = 365;
      expect(got.length).toBeGreaterThanOrEqual(full - 2 * Math.max(changes.length, 1));
      expect(got.length).toBeLessThanOrEqual(full);
    }
  });
});

describe('the UTC shortcut', () => {
  test('a UTC rule fires exactly when the same rule does in a zone on UTC without the shortcut (Africa/Abidjan)', () => {
    for (const cron of ['* * * * *', '*/7 3-5 * * *', '30 2 29 2 *', '0 0 1 * 1']) {
      const shortcut = new FireTimes({ cron, timezone: 'Etc/UTC' });
      const full = new FireTimes({ cron, timezone: 'Africa/Abidjan' });
      const from = Date.parse('2026-01-01T00:00:00Z');
      expect(shortcut.upcoming(from, 300)).toEqual(full.upcoming(from, 300));
      expect(shortcut.between(from, from + 86_400_000, 2000)).toEqual(full.between(from, from + 86_400_000, 2000));
    }
  });
});
