// When a schedule fires (decisions.md §14): a five-field cron expression read in an IANA time
// zone. Croner parses the expression and finds the next matching wall-clock minute (it runs on
// a zero offset, so it steps through local times, not instants); this file turns each local
// minute into the instants that show it in the zone. A local time a daylight-saving change
// skips shows at no instant, so it never fires; one it repeats shows at two, and fires once,
// at the first. (Croner's own time-zone mode moves a skipped fixed time past the gap and fires
// a wildcard expression on both passes of a repeated hour; the contract wants neither.)
// Croner runs on a fixed zero offset (`utcOffset: 0`), not the named zone `Etc/UTC`: with a
// name it formats every candidate through Intl, five times the cost of a step, and a fire time
// of 10,000 schedules asks it tens of thousands of questions (bench/scheduler.js).
import { Cron } from 'croner';
import { type FieldError, ValidationError } from '../../core/errors.js';

/** Enough to step over the longest run of local minutes that fire nowhere (a DST night, a leap day). */
const MAX_CANDIDATES = 2_000;
const MINUTE_MS = 60_000;
/** Where the never-fires check starts looking: a fixed instant, so the answer does not depend on today. */
const NEVER_FIRES_FROM = Date.UTC(2000, 0, 1);
/** Around a local minute, the zone's offsets worth trying: a change moves it by at most a few hours. */
const PROBE_MS = [-3, 0, 3].map((hours) => hours * 3_600_000);

/** Names Intl gives zones that keep UTC's clock all year (Intl resolves the aliases, Zulu and Etc/UCT among them, to UTC; fire-times.test.ts checks the shortcut against the full formatting). */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT']);

export interface FireRule {
  cron: string;
  timezone: string;
}

interface WallClock {
  format: Intl.DateTimeFormat;
  /** A zone whose clock is UTC's all year: its local minute is the instant's, with no formatting. */
  utc: boolean;
}

const wallClocks = new Map<string, WallClock>();

function wallClock(timezone: string): WallClock {
  let clock = wallClocks.get(timezone);
  if (!clock) {
    const format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    // Intl's own name for the zone, so aliases (Etc/UTC, Etc/GMT, Zulu, …) are caught too.
    clock = { format, utc: UTC_ZONES.has(format.resolvedOptions().timeZone) };
    wallClocks.set(timezone, clock);
  }
  return clock;
}

/** Parsed expressions, by their text: a Cron answers `nextRun(date)` from the date alone, so schedules sharing an expression share one. */
const parsedCrons = new Map<string, Cron>();
const MAX_PARSED_CRONS = 1_000;

function parseCron(expression: string): Cron {
  let cron = parsedCrons.get(expression);
  if (!cron) {
    cron = new Cron(expression, { utcOffset: 0, mode: '5-part' });
    // A bound, not an LRU: past it the cache starts afresh (thousands of distinct expressions are rare).
    if (parsedCrons.size >= MAX_PARSED_CRONS) parsedCrons.clear();
    parsedCrons.set(expression, cron);
  }
  return cron;
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
  let cron: Cron;
  try {
    cron = parseCron(rule.cron.trim());
  } catch (error) {
    return [{ path: `${prefix}.cron`, message: `is not a valid cron expression: ${(error as Error).message.replace(/^CronPattern: /, '')}` }];
  }
  // With no year field, an expression that matches any calendar day matches one within a
  // Gregorian cycle; Croner searches far past that, so no next run means no day ever matches
  // (30 February, 31 April). Accepted, such a schedule would sit enabled and never run.
  if (!cron.nextRun(new Date(NEVER_FIRES_FROM))) {
    return [{ path: `${prefix}.cron`, message: 'never fires: no calendar day matches its day-of-month and month (for example 30 February or 31 April)' }];
  }
  return [];
}

/** A rule checked once, so the many fire-time questions of one pass parse it once. */
export class FireTimes {
  private readonly cron: Cron;
  private readonly wall: Intl.DateTimeFormat;
  private readonly utc: boolean;

  constructor(rule: FireRule) {
    const problems = ruleProblems(rule);
    if (problems.length > 0) throw new ValidationError(problems);
    this.cron = parseCron(rule.cron.trim());
    ({ format: this.wall, utc: this.utc } = wallClock(rule.timezone));
  }

  /** The first fire time strictly after `afterMs`, or null when the expression never fires again. */
  next(afterMs: number): number | null {
    // Local minutes from the one showing at `afterMs`; in a repeated hour an earlier-looking minute may still come.
    let cursor = this.localMinute(afterMs) - 1;
    for (let i = 0; i < MAX_CANDIDATES; i += 1) {
      const local = this.cron.nextRun(new Date(cursor));
      if (!local) return null;
      cursor = local.getTime();
      const first = this.firstInstantShowing(cursor);
      if (first !== null && first > afterMs) return first;
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

  /** The zone's wall clock at `at`, to the minute, written as if it were UTC. */
  private localMinute(at: number): number {
    if (this.utc) return Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const p: Record<string, number> = {};
    for (const part of this.wall.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year as number, (p.month as number) - 1, p.day, p.hour, p.minute);
  }

  /** The zone's offset from UTC at the instant `at`. */
  private offsetAt(at: number): number {
    return this.localMinute(at) - Math.floor(at / MINUTE_MS) * MINUTE_MS;
  }

  /** The earliest instant at which the zone's clock shows the local minute `local`; null inside a gap. */
  private firstInstantShowing(local: number): number | null {
    // Near the instant the zone's current offset suggests, try the offsets in force a few hours either side.
    const near = local - this.offsetAt(local);
    let first: number | null = null;
    for (const probe of PROBE_MS) {
      const at = local - this.offsetAt(near + probe);
      if (this.localMinute(at) === local && (first === null || at < first)) first = at;
    }
    return first;
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
