// When a schedule fires (decisions.md §14): a five-field cron expression read in an IANA time
// zone, by croner. Croner moves a fixed-time job out of a daylight-saving gap to the first
// valid time after it, and fires an interval job on both passes of a repeated hour; the
// contract wants neither: a local time that a change skips never fires, one it repeats fires
// once (on its first pass). So every instant croner proposes is kept only if the zone's wall
// clock at that instant matches the expression and showed the same minute at no earlier
// instant of the last two hours.
import { Cron } from 'croner';
import { type FieldError, ValidationError } from '../../core/errors.js';

/** Enough to step over the longest run of non-firing candidates a real expression makes (a DST night, Feb 29). */
const MAX_CANDIDATES = 2_000;
/** The repeats a fall-back can make: 30 minutes (Lord Howe), an hour, two hours (historic double summer time). */
const REPEAT_SPANS_MS = [30, 60, 120].map((minutes) => minutes * 60_000);

export interface FireRule {
  cron: string;
  timezone: string;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(timezone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    wallClocks.set(timezone, format);
  }
  return format;
}

/** Whether `timezone` is an IANA zone this runtime knows. */
export function isKnownTimezone(timezone: string): boolean {
  try {
    wallClock(timezone);
    return true;
  } catch {
    return false;
  }
}

/** The problems of a rule, with the request paths a person should fix (`body.cron`, `body.timezone`). */
export function ruleProblems(rule: FireRule, prefix = 'body'): FieldError[] {
  if (!isKnownTimezone(rule.timezone)) return [{ path: `${prefix}.timezone`, message: 'is not an IANA time zone name (for example Europe/Berlin or UTC)' }];
  const fields = rule.cron.trim().split(/\s+/);
  if (fields.length !== 5) {
    return [{ path: `${prefix}.cron`, message: `must have exactly five fields (minute hour day-of-month month day-of-week); it has ${fields.length === 6 ? 'six (a seconds field is not accepted)' : fields.length}` }];
  }
  try {
    new Cron(rule.cron, { timezone: rule.timezone, mode: '5-part' });
  } catch (error) {
    return [{ path: `${prefix}.cron`, message: `is not a valid cron expression: ${(error as Error).message.replace(/^CronPattern: /, '')}` }];
  }
  return [];
}

/** A rule checked once, so the many fire-time questions of one pass parse it once. */
export class FireTimes {
  private readonly cron: Cron;
  private readonly wall: Intl.DateTimeFormat;

  constructor(rule: FireRule) {
    const problems = ruleProblems(rule);
    if (problems.length > 0) throw new ValidationError(problems);
    this.cron = new Cron(rule.cron, { timezone: rule.timezone, mode: '5-part' });
    this.wall = wallClock(rule.timezone);
  }

  /** The first fire time strictly after `afterMs`, or null when the expression never fires again. */
  next(afterMs: number): number | null {
    let from = new Date(afterMs);
    for (let i = 0; i < MAX_CANDIDATES; i += 1) {
      const candidate = this.cron.nextRun(from);
      if (!candidate) return null;
      const at = candidate.getTime();
      if (at > afterMs && this.fires(at)) return at;
      from = candidate;
    }
    return null;
  }

  /** Up to `limit` fire times after `afterMs`, in order. */
  upcoming(afterMs: number, limit: number): number[] {
    const times: number[] = [];
    let at: number | null = afterMs;
    while (times.length < limit && (at = this.next(at)) !== null) times.push(at);
    return times;
  }

  /** Fire times in (afterMs, untilMs], oldest first, at most `limit` of them (the newest when there are more). */
  between(afterMs: number, untilMs: number, limit: number): { times: number[]; dropped: number } {
    const times: number[] = [];
    let dropped = 0;
    let at: number | null = afterMs;
    while ((at = this.next(at)) !== null && at <= untilMs) {
      times.push(at);
      if (times.length > limit) {
        times.shift();
        dropped += 1;
      }
    }
    return { times, dropped };
  }

  /** The local wall clock at `at` matches the expression, and no earlier instant of a fall-back showed the same minute. */
  private fires(at: number): boolean {
    if (!this.cron.match(new Date(at))) return false;
    const minute = this.wall.format(at);
    return !REPEAT_SPANS_MS.some((span) => this.wall.format(at - span) === minute);
  }
}

/** An instant as RFC 3339 with the zone's offset at that instant (`2026-03-29T03:00:00+02:00`). */
export function inZone(at: number, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
