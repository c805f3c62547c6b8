// Schedules in words: a cron rule described by cronstrue ("At 09:00, Monday through
// Friday"), and a fire time as a person reads it: weekday, date and time in the schedule's
// zone with the zone named, and how far off it is ("in 3 h").
import cronstrue from 'cronstrue';

/** The rule in words, or undefined when it is not five fields cronstrue can read (the service has the last word). */
export function describeCron(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  // cronstrue also reads a seconds and a year field, which the service refuses.
  if (fields.length !== 5) return undefined;
  try {
    return cronstrue.toString(fields.join(' '), { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return undefined;
  }
}

/** "in 3 h", "in 12 min", "in 2 d", "now", "5 min ago": short enough for a table cell. */
export function until(iso: string, now = Date.now()): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  const size = Math.abs(minutes);
  const amount = size < 1 ? '' : size < 60 ? `${size} min` : size < 48 * 60 ? `${Math.round(size / 60)} h` : `${Math.round(size / 1440)} d`;
  if (amount === '') return 'now';
  return minutes > 0 ? `in ${amount}` : `${amount} ago`;
}

/** "Mon 1 Dec, 09:00 GMT+1" in `timeZone` (the schedule's own zone, whose wall clock the rule follows). */
export function wallTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'shortOffset' }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  // The offset, not an abbreviation: ICU names some zones ("CET") and not others ("GMT-4").
  const offset = /^GMT(\+0)?$/.test(part('timeZoneName')) ? 'UTC' : part('timeZoneName');
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${offset}`;
}

/** A fire time for a person: "Mon 1 Dec, 09:00 GMT+1 · in 3 h". */
export const fireTime = (iso: string, timeZone: string, now = Date.now()): string => `${wallTime(iso, timeZone)} · ${until(iso, now)}`;
