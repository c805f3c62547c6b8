// App interrupts (§15): every open of an app (open_app, a launcher tap, a `package:` link,
// even when the app is already in front) is counted per device since it started; a rule that
// fires puts its dialog over whatever the app shows, a loading screen included. The dialog is
// an ordinary screen pushed on the task, so BACK or its `to: "back"` button dismisses it and
// the screen beneath is returned to as it was.
import type { SimApp } from './app-schema.js';
import { enterScreen } from './navigation.js';
import { draw } from './rng.js';
import type { SimState } from './state.js';

/** Counts an open of the app (which is in front) and shows the first interrupt that fires. */
export function countOpen(state: SimState, app: SimApp, now: number): void {
  const opens = (state.opens[app.package] ?? 0) + 1;
  state.opens[app.package] = opens;
  const rules = app.interrupts ?? [];
  for (const [i, rule] of rules.entries()) {
    const firedKey = `${app.package}#${i}`;
    if (rule.every_opens !== undefined && opens % rule.every_opens !== 0) continue;
    if (rule.after_opens !== undefined && (opens < rule.after_opens || state.fired.includes(firedKey))) continue;
    if (rule.probability !== undefined && draw(state) >= rule.probability) continue;
    if (rule.after_opens !== undefined) state.fired.push(firedKey);
    const stack = state.tasks[app.package];
    // Already showing (a quick second open): one dialog, not two.
    if (!stack || stack[stack.length - 1] === rule.screen) return;
    stack.push(rule.screen);
    enterScreen(state, app, rule.screen, now);
    return;
  }
}
