// Timing helpers for the latency checks: run a step n times, report p50 and p99 in ms.
export interface Timing {
  p50: number;
  p99: number;
}

export async function measure(n: number, step: (i: number) => Promise<unknown>): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await step(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(2));
  return { p50: at(0.5), p99: at(0.99) };
}

export function report(title: string, timings: Record<string, Timing>): void {
  const lines = Object.entries(timings).map(([name, t]) => `  ${name.padEnd(34)} p50 ${String(t.p50).padStart(7)} ms   p99 ${String(t.p99).padStart(7)} ms`);
  process.stdout.write(`\n${title}\n${lines.join('\n')}\n`);
}
