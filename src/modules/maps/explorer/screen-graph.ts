// The explorer's working memory: the screens seen so far with the state of each of their
// controls, and the transitions observed between them. Planning (which screen to go to next,
// and how) reads it; the explorer loop writes it after every observation.
import type { UiElement } from '../../devices/index.js';
import type { DoNotTouch } from './do-not-touch.js';
import { elementKeyOf } from './screen-identity.js';
import type { ActionElement, ExploredScreen, ExploredTransition, PathStep } from './types.js';

/** Taps that changed nothing before a control counts as dead (the stagnation rule). */
export const STAGNATION_LIMIT = 3;

export type ControlStatus = 'untried' | 'retry' | 'done' | 'dead' | 'forbidden';

export interface Control {
  key: string;
  element: UiElement;
  status: ControlStatus;
  noChange: number;
  /** The do-not-touch phrase it matched. */
  phrase?: string;
}

export interface ScreenNode {
  id: string;
  title: string;
  activity: string | null;
  elementCount: number;
  path: PathStep[];
  controls: Map<string, Control>;
  /** Set when reaching the screen failed too often: its remaining controls are given up. */
  unreachable: boolean;
  navFailures: number;
  /** A dialog that came over the first screen on a fresh start: recorded, dismissed, not explored. */
  interrupt?: boolean;
}

/** Where BACK or a tap led: a screen id, or OUTSIDE (another app or the home screen). */
export const OUTSIDE = '';

export function actionElement(e: UiElement): ActionElement {
  return { resource_id: e.resource_id, text: e.text, content_desc: e.content_desc, class: e.class, bounds: { ...e.bounds } };
}

export class ScreenGraph {
  readonly screens = new Map<string, ScreenNode>();
  private readonly transitions = new Map<string, ExploredTransition>();
  /** Last observed result of tapping a control: from → key → to. */
  readonly tapEdges = new Map<string, Map<string, string>>();
  /** Last observed result of BACK on each screen. */
  readonly backEdges = new Map<string, string>();
  startId: string | undefined;

  constructor(private readonly doNotTouch: DoNotTouch) {}

  /** Adds the screen if new (answering true), and any control not seen on it before. */
  visit(id: string, details: { title: string; activity: string | null; visible: UiElement[]; path: PathStep[] }): { node: ScreenNode; isNew: boolean } {
    let node = this.screens.get(id);
    const isNew = node === undefined;
    if (!node) {
      node = { id, title: details.title, activity: details.activity, elementCount: details.visible.length, path: details.path, controls: new Map(), unreachable: false, navFailures: 0 };
      this.screens.set(id, node);
      this.startId ??= id;
    }
    for (const element of details.visible) {
      if (!element.clickable && !element.editable) continue;
      const key = elementKeyOf(element);
      const known = node.controls.get(key);
      if (known) {
        known.element = element;
        continue;
      }
      const phrase = this.doNotTouch(element);
      node.controls.set(key, phrase === null ? { key, element, status: 'untried', noChange: 0 } : { key, element, status: 'forbidden', noChange: 0, phrase });
    }
    return { node, isNew };
  }

  /** The next control to tap on this screen: untried ones first, then those that changed nothing and may still. */
  nextControl(node: ScreenNode): Control | undefined {
    if (node.unreachable) return undefined;
    let retry: Control | undefined;
    for (const control of node.controls.values()) {
      if (control.status === 'untried') return control;
      if (control.status === 'retry') retry ??= control;
    }
    return retry;
  }

  hasWork(node: ScreenNode): boolean {
    return this.nextControl(node) !== undefined;
  }

  record(from: string, action: PathStep, to: string): void {
    if (action.type === 'tap') {
      const key = elementKeyOf(action.element);
      let edges = this.tapEdges.get(from);
      if (!edges) this.tapEdges.set(from, (edges = new Map()));
      edges.set(key, to);
    } else {
      this.backEdges.set(from, to);
    }
    if (to === OUTSIDE || to === from) return;
    const id = `${from}|${action.type}|${action.type === 'tap' ? elementKeyOf(action.element) : ''}|${to}`;
    if (!this.transitions.has(id)) this.transitions.set(id, { from, to, action });
  }

  transitionCount(): number {
    return this.transitions.size;
  }

  exploredScreens(): ExploredScreen[] {
    return [...this.screens.values()].map((n) => ({ screen_id: n.id, title: n.title, activity: n.activity, element_count: n.elementCount, path: n.path }));
  }

  exploredTransitions(): ExploredTransition[] {
    return [...this.transitions.values()];
  }

  untouched() {
    const out: { screen_id: string; element: ActionElement; phrase: string }[] = [];
    for (const node of this.screens.values()) {
      for (const c of node.controls.values()) if (c.status === 'forbidden') out.push({ screen_id: node.id, element: actionElement(c.element), phrase: c.phrase ?? '' });
    }
    return out;
  }

  /**
   * The cheapest known way from `from` to a screen with work left: the first step of the
   * shortest route over observed taps and BACKs, or null when none is known. Breadth-first:
   * every step costs one action.
   */
  routeToWork(from: string): { first: { type: 'tap'; key: string } | { type: 'back' }; length: number; target: string } | null {
    type First = { type: 'tap'; key: string } | { type: 'back' };
    const seen = new Set([from]);
    let frontier: { id: string; first: First | null }[] = [{ id: from, first: null }];
    for (let length = 1; frontier.length > 0; length++) {
      const next: { id: string; first: First }[] = [];
      for (const { id, first } of frontier) {
        const steps: [First, string][] = [];
        for (const [key, to] of this.tapEdges.get(id) ?? []) steps.push([{ type: 'tap', key }, to]);
        const back = this.backEdges.get(id);
        if (back !== undefined) steps.push([{ type: 'back' }, back]);
        for (const [step, to] of steps) {
          if (to === OUTSIDE || seen.has(to)) continue;
          seen.add(to);
          const node = this.screens.get(to);
          if (!node) continue;
          const route = { id: to, first: first ?? step };
          if (this.hasWork(node)) return { first: route.first, length, target: to };
          next.push(route);
        }
      }
      frontier = next;
    }
    return null;
  }

  /** The screen with work left whose recorded path from the start is shortest, for a restart and replay. */
  nearestByReplay(): ScreenNode | undefined {
    let best: ScreenNode | undefined;
    for (const node of this.screens.values()) {
      if (this.hasWork(node) && (!best || node.path.length < best.path.length)) best = node;
    }
    return best;
  }
}
