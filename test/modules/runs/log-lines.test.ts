// Cutting output into log lines and shipping them in batches: 8 KiB lines (cut and marked),
// partial lines across chunks, invalid UTF-8, and batches every 500 ms or 200 lines.
import { describe, expect, test } from 'vitest';
import { cutMarker, LineSplitter, MAX_LOG_LINE_BYTES } from '../../../src/modules/runs/logs/line-splitter.js';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { MemorySink } from './helpers/runner.js';

function split(chunks: (string | Buffer)[], prefix?: string): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), { prefix });
  for (const chunk of chunks) splitter.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  splitter.end();
  return lines;
}

describe('lines', () => {
  test('split on newlines wherever the chunks break; a last line without a newline still counts; empty lines stay', () => {
    expect(split(['one\ntw', 'o\n\nthr', 'ee'])).toEqual(['one', 'two', '', 'three']);
    expect(split(['a\n'])).toEqual(['a']);
    expect(split([])).toEqual([]);
    expect(split(['\n'])).toEqual(['']);
  });

  test('a character split across chunks is whole again; invalid bytes become U+FFFD', () => {
    const euro = Buffer.from('€');
    expect(split([Buffer.concat([Buffer.from('price 9'), euro.subarray(0, 1)]), Buffer.concat([euro.subarray(1), Buffer.from('\n')])])).toEqual(['price 9€']);
    expect(split([Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xfe, 0x20, 0xc3, 0x0a])])).toEqual(['ok \uFFFD\uFFFD \uFFFD']);
  });

  test('the prefix goes before every line', () => {
    expect(split(['x\ny'], '[stderr] ')).toEqual(['[stderr] x', '[stderr] y']);
  });

  test('a line over 8 KiB keeps its start and is marked with its length; the stored line is at most 8 KiB', () => {
    const long = 'é'.repeat(10_000); // 20,000 bytes
    const [line, next] = split([`${long.slice(0, 3000)}`, `${long.slice(3000)}\nnext`], '[stderr] ');
    expect(next).toBe('[stderr] next');
    expect(line.startsWith('[stderr] éé')).toBe(true);
    expect(line.endsWith(cutMarker(20_000))).toBe(true);
    const bytes = Buffer.byteLength(line);
    expect(bytes).toBeLessThanOrEqual(MAX_LOG_LINE_BYTES);
    expect(bytes).toBeGreaterThan(MAX_LOG_LINE_BYTES - 50);
    expect(line).not.toContain('\uFFFD'); // never half a character
  });

  test('invalid bytes that decode longer than 8 KiB are cut too', () => {
    const [line] = split([Buffer.alloc(8000, 0xff)]);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LOG_LINE_BYTES);
    expect(line.endsWith(cutMarker(8000))).toBe(true);
  });

  test('a line of exactly 8 KiB is kept whole', () => {
    const [line] = split(['x'.repeat(MAX_LOG_LINE_BYTES)]);
    expect(line).toBe('x'.repeat(MAX_LOG_LINE_BYTES));
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('batches', () => {
  test('the first line goes at once; later lines wait for 500 ms after the previous batch', async () => {
    const sink = new MemorySink();
    const shipper = new LogShipper(sink);
    shipper.push('first');
    await expect.poll(() => sink.batches).toEqual([['first']]);
    shipper.push('second');
    shipper.push('third');
    await sleep(250);
    expect(sink.batches).toHaveLength(1);
    await expect.poll(() => sink.batches, { timeout: 1000 }).toEqual([['first'], ['second', 'third']]);
    await shipper.close();
  });

  test('200 waiting lines go at once, in batches of 200, in order', async () => {
    const sink = new MemorySink();
    const shipper = new LogShipper(sink);
    shipper.push('warm-up');
    await expect.poll(() => sink.batches.length).toBe(1);
    for (let i = 0; i < 450; i += 1) shipper.push(String(i));
    await expect.poll(() => sink.batches.length, { timeout: 300 }).toBe(3);
    expect(sink.batches.slice(1).map((b) => b.length)).toEqual([200, 200]);
    await shipper.close();
    expect(sink.batches.map((b) => b.length)).toEqual([1, 200, 200, 50]);
    expect(sink.lines.slice(1)).toEqual(Array.from({ length: 450 }, (_, i) => String(i)));
  });

  test('one batch at a time, in order, however slow the sink; past the high-water mark push asks the producer to pause', async () => {
    const stored: string[][] = [];
    let inFlight = 0;
    const slow = {
      async append(lines: string[]) {
        inFlight += 1;
        expect(inFlight).toBe(1);
        await sleep(20);
        stored.push(lines);
        inFlight -= 1;
      },
    };
    const shipper = new LogShipper(slow, { highWaterLines: 300 });
    const answers: boolean[] = [];
    for (let i = 0; i < 1000; i += 1) answers.push(shipper.push(String(i)));
    // The first line left at once; 300 more are waiting at the 301st push.
    expect(answers.indexOf(false)).toBe(300);
    await shipper.drained();
    await shipper.close();
    expect(stored.flat()).toEqual(Array.from({ length: 1000 }, (_, i) => String(i)));
    expect(shipper.shipped).toBe(1000);
  });

  test('a failing sink is retried; a batch it refuses every time is reported, and later lines still go', async () => {
    let failures = 2;
    const stored: string[][] = [];
    const flaky = {
      async append(lines: string[]) {
        if (lines[0] === 'doomed' || failures-- > 0) throw new Error('database unavailable');
        stored.push(lines);
      },
    };
    const lost: string[][] = [];
    const shipper = new LogShipper(flaky, { retryDelaysMs: [5, 5], onLost: (_error, lines) => lost.push(lines), intervalMs: 0 });
    shipper.push('kept');
    await expect.poll(() => stored).toEqual([['kept']]);
    shipper.push('doomed');
    await expect.poll(() => lost).toEqual([['doomed']]);
    shipper.push('after');
    await shipper.close();
    expect(stored).toEqual([['kept'], ['after']]);
    expect([shipper.shipped, shipper.lost]).toEqual([2, 1]);
  });

  test('close ships what is waiting at once', async () => {
    const sink = new MemorySink();
    // A batch interval far longer than any busy machine's delay: only close can ship these soon.
    const shipper = new LogShipper(sink, { intervalMs: 60_000 });
    shipper.push('a');
    shipper.push('b');
    shipper.push('c');
    const started = performance.now();
    await shipper.close();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(sink.lines).toEqual(['a', 'b', 'c']);
    expect(() => shipper.push('late')).toThrow(/closed/);
  });
});
