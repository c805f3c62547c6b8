// The true menu map of a simulated app, worked out from its description: the screens a tap
// path from the first screen reaches without touching the do-not-touch list, grouped by the
// same structural identity the explorer uses (a screen's elements; a dialog's window only),
// and the distinct (screen, control, screen) taps between them. Taps whose target depends on
// the path (`back`) and links out of the app are not part of it.
import { type SimApp, SIM_SCREEN, type UiElement } from '../../../../src/modules/devices/index.js';
import { doNotTouchMatcher, DEFAULT_DO_NOT_TOUCH } from '../../../../src/modules/maps/explorer/do-not-touch.js';
import { elementKeyOf, screenIdOf, visibleElements } from '../../../../src/modules/maps/explorer/screen-identity.js';

export interface TrueGraph {
  screens: Set<string>;
  /** `from|elementKey|to` */
  transitions: Set<string>;
  /** Sim screen id → structural id. */
  idOf: Map<string, string>;
  /** Structural ids of screens only a do-not-touch control leads to. */
  forbiddenOnly: Set<string>;
}

function asTree(screen: SimApp['screens'][number]): UiElement[] {
  return screen.elements.map((e) => ({ element_id: e.id, class: e.class, text: e.text, resource_id: e.resource_id, content_desc: e.content_desc, bounds: e.bounds, clickable: e.clickable, editable: e.editable, scrollable: false }));
}

export function trueGraph(app: SimApp, doNotTouch: readonly string[] = DEFAULT_DO_NOT_TOUCH): TrueGraph {
  const forbidden = doNotTouchMatcher(doNotTouch);
  const idOf = new Map(app.screens.map((s) => [s.id, screenIdOf(visibleElements(asTree(s), SIM_SCREEN))]));
  const byId = new Map(app.screens.map((s) => [s.id, s]));
  const reached = new Set<string>([app.screens[0].id]);
  const queue = [app.screens[0].id];
  const transitions = new Set<string>();
  const behindForbidden = new Set<string>();
  while (queue.length > 0) {
    const screen = byId.get(queue.shift() as string);
    if (!screen) continue;
    for (const e of screen.elements) {
      if (!e.clickable || !e.to || e.to === 'back' || e.to.startsWith('package:')) continue;
      if (forbidden(e) !== null) {
        behindForbidden.add(e.to);
        continue;
      }
      transitions.add(`${idOf.get(screen.id)}|${elementKeyOf(e)}|${idOf.get(e.to)}`);
      if (!reached.has(e.to)) {
        reached.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return {
    screens: new Set([...reached].map((id) => idOf.get(id) as string)),
    transitions,
    idOf,
    forbiddenOnly: new Set([...behindForbidden].filter((id) => !reached.has(id)).map((id) => idOf.get(id) as string)),
  };
}
