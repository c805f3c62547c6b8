// Interrupts (uiautomator2's watchers, decisions.md §16): a run registers `{when, do}`; while
// a wait polls, a registered selector that shows gets its action first, and the run's log
// says so ("handled interrupt: tap text='Not now'").
import type { ElementWithCenter } from '../actions/find-element.js';
import type { ActionEnv, Interrupt } from './env.js';
import { matchesOn, pickIndex, readScreen } from './look.js';
import { describeSelector } from './selector.js';

export function describeInterrupt(interrupt: Interrupt): string {
  const act = interrupt.do;
  if (act.type === 'key') return `key ${act.key.toUpperCase()} (when ${describeSelector(interrupt.when)})`;
  if (act.selector) return `tap ${describeSelector(act.selector)} (when ${describeSelector(interrupt.when)})`;
  if (act.x !== undefined && act.y !== undefined) return `tap (${act.x}, ${act.y}) (when ${describeSelector(interrupt.when)})`;
  return `tap ${describeSelector(interrupt.when)}`;
}

export async function handleInterrupt(env: ActionEnv, interrupt: Interrupt, element: ElementWithCenter): Promise<void> {
  const act = interrupt.do;
  if (act.type === 'key') {
    await env.driver.pressKey(act.key);
  } else if (act.selector) {
    const look = await readScreen(env);
    const [target] = pickIndex(act.selector, await matchesOn(env, act.selector, look));
    if (target) await env.driver.tap(target.center.x, target.center.y);
  } else if (act.x !== undefined && act.y !== undefined) {
    await env.driver.tap(act.x, act.y);
  } else {
    await env.driver.tap(element.center.x, element.center.y);
  }
  env.log?.(`handled interrupt: ${describeInterrupt(interrupt)}`);
}
