// Counts in the console's sentences take the noun in the right number: the code upload said
// "1 files" and the pager "1–1 of 1 macros" before these helpers.
import { describe, expect, test } from 'vitest';
import { filesSummary, plural } from '../../web/src/lib/format.js';

describe('plural', () => {
  test.each([
    [0, 'file', undefined, '0 files'],
    [1, 'file', undefined, '1 file'],
    [2, 'file', undefined, '2 files'],
    [1, 'delivery', 'deliveries', '1 delivery'],
    [3, 'delivery', 'deliveries', '3 deliveries'],
    [1, 'proxy', 'proxies', '1 proxy'],
  ])('%i %s', (count, one, other, expected) => {
    expect(plural(count, one, other)).toBe(expected);
  });
});

describe('the code upload says what it holds', () => {
  test('one file is one file', () => {
    expect(filesSummary(1, 120)).toBe('1 file, 120 B');
  });
  test('several files', () => {
    expect(filesSummary(12, 3_500)).toBe('12 files, 3.4 KB');
  });
});
