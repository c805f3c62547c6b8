// Schedules in words: the rule described (five fields only), fire times in the schedule's zone
// with the zone named, and how far off they are.
import { expect, test } from 'vitest';
import { describeCron, fireTime, until, wallTime } from '../../web/src/lib/fire-time.js';

test('a five-field rule in words; six fields, or nonsense, not described', () => {
  expect(describeCron('0 9 * * 1-5')).toBe('At 09:00, Monday through Friday');
  expect(describeCron(' * *  * * * ')).toBe('Every minute');
  expect(describeCron('0 9 * * * *')).toBeUndefined();
  expect(describeCron('banana')).toBeUndefined();
});

test('a fire time on the wall clock of its zone, the zone named', () => {
  expect(wallTime('2026-12-01T08:00:00.000Z', 'Europe/Berlin')).toBe('Tue 1 Dec, 09:00 GMT+1');
  expect(wallTime('2026-07-01T13:00:00.000Z', 'America/New_York')).toBe('Wed 1 Jul, 09:00 GMT-4');
  expect(wallTime('2026-07-01T13:00:00.000Z', 'UTC')).toBe('Wed 1 Jul, 13:00 UTC');
});

test('how far off, short', () => {
  const now = Date.parse('2026-12-01T06:00:00Z');
  expect(until('2026-12-01T09:00:00Z', now)).toBe('in 3 h');
  expect(until('2026-12-01T06:12:00Z', now)).toBe('in 12 min');
  expect(until('2026-12-04T06:00:00Z', now)).toBe('in 3 d');
  expect(until('2026-12-01T06:00:20Z', now)).toBe('now');
  expect(until('2026-12-01T05:55:00Z', now)).toBe('5 min ago');
  expect(fireTime('2026-12-01T08:00:00Z', 'Europe/Berlin', now)).toBe('Tue 1 Dec, 09:00 GMT+1 · in 2 h');
});
