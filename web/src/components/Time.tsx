// Timestamps: relative ("3 minutes ago") with the exact UTC time on hover and for readers.
import { Tooltip } from '@mantine/core';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

export function fromNow(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return Math.abs(diff) < 45_000 ? 'just now' : relative.format(Math.round(diff / 1000), 'second');
}

export const exactTime = (iso: string): string => `${exact.format(new Date(iso))} UTC`;

export function Time({ value, empty = '—' }: { value: string | null | undefined; empty?: string }) {
  if (!value) return <>{empty}</>;
  return (
    <Tooltip label={exactTime(value)} openDelay={300}>
      <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>{fromNow(value)}</time>
    </Tooltip>
  );
}
