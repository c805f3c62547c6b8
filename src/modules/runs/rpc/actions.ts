// The device-action catalogue over the run's device RPC (decisions.md §16): one route per
// entry, `POST /api/runs/devices/{device_id}/actions/{name}`, whose body is the entry's
// arguments plus the run's `interrupts` (the SDK sends those it registered with `when`), and
// whose answer is the entry's result with the lines the action wrote to the run's log
// ("handled interrupt: …"), which the SDK prints so they reach the log in order.
import { type TObject, Type } from 'typebox';
import { type ActionTracer, type CatalogueEntry, DEVICE_CATALOGUE, type DeviceDriver, type Interrupt, Interrupts, parseSelector, sdkName, tracedStep } from '../../devices/index.js';
import type { CallDeps, RunCaller } from './functions.js';

/** The screenshot stays `screenshot` (PNG for macros, §10); every other entry is served. */
export const RPC_ACTIONS: readonly CatalogueEntry[] = DEVICE_CATALOGUE.filter((entry) => entry.name !== 'device_screenshot');

export const actionBody = (entry: CatalogueEntry): TObject => Type.Object({ ...entry.input.properties, interrupts: Type.Optional(Interrupts) }, { additionalProperties: false });

export const actionAnswer = (entry: CatalogueEntry): TObject =>
  Type.Object({
    result: entry.output ?? Type.Object({}),
    log: Type.Array(Type.String(), { description: 'Lines for the run log, in order (interrupts handled while waiting)' }),
  });

/** One catalogue action for a run; with a tracer, it is also a step of the run's trace (§17). */
export async function callAction(entry: CatalogueEntry, driver: DeviceDriver, body: Record<string, unknown>, caller: RunCaller, deps: CallDeps, tracer?: ActionTracer): Promise<{ result: unknown; log: string[] }> {
  const { interrupts, ...args } = body as { interrupts?: Interrupt[] } & Record<string, unknown>;
  (interrupts ?? []).forEach((rule, i) => {
    parseSelector(rule.when, `body.interrupts.${i}.when`);
    if (rule.do.type === 'tap' && rule.do.selector) parseSelector(rule.do.selector, `body.interrupts.${i}.do.selector`);
  });
  const log: string[] = [];
  const env = { driver, owner: { userId: caller.userId }, vision: deps.images, interrupts, log: (line: string) => log.push(line) };
  const answer = await tracedStep(tracer, { action: sdkName(entry.name), args }, env, (traced) => entry.run(traced, args));
  return { result: answer.data ?? {}, log };
}
