// The explorer (decisions.md §13): start the app fresh, identify each screen by its structure,
// tap each control of each screen, record where it led, and move on to the nearest screen
// with controls left, over the transitions already seen (a tap or BACK) or, when that is
// longer or BACK fails, by restarting the app and replaying the screen's recorded path. Ends
// when no screen has controls left or a limit is reached. It drives a DeviceDriver only, so
// it is the same on `sim` and on a real phone.
import type { DeviceDriver, UiElement } from '../../devices/index.js';
import type { DoNotTouch } from './do-not-touch.js';
import { type ScreenArea, centerOf, contentOf, elementKeyOf, screenIdOf, titleOf, visibleElements } from './screen-identity.js';
import { actionElement, type Control, OUTSIDE, ScreenGraph, type ScreenNode, STAGNATION_LIMIT } from './screen-graph.js';
import type { ActionElement, ExploreEnd, ExploreProgress, ExploreResult, PathStep } from './types.js';

export interface ExploreOptions {
  package: string;
  maxScreens: number;
  /** Clock time at which the exploration ends (max_minutes). */
  deadline: number;
  now: () => number;
  /** At most this many actions (for tests and benchmarks); unbounded when absent. */
  maxActions?: number;
  doNotTouch: DoNotTouch;
  signal?: AbortSignal;
  /** Told after every action. */
  onProgress?: (progress: ExploreProgress) => void | Promise<void>;
  /** Told once per new screen while it is on the device (for its thumbnail). */
  onNewScreen?: (screenId: string) => void | Promise<void>;
  /** Waits while a screen loads; a timer by default (tests pass one that moves their clock). */
  sleep?: (ms: number) => Promise<void>;
}

interface Observation {
  outside: boolean;
  screenId: string;
  content: string;
  visible: UiElement[];
  activity: string | null;
}

/** A route to a screen failed this often: its remaining controls are given up. */
const NAV_FAILURE_LIMIT = 3;

export class Explorer {
  private readonly graph: ScreenGraph;
  private actions = 0;
  private area: ScreenArea = { width: 1, height: 1 };
  /** The steps since the last restart that led here; a new screen's path. */
  private trail: PathStep[] = [];

  constructor(
    private readonly driver: DeviceDriver,
    private readonly options: ExploreOptions,
  ) {
    this.graph = new ScreenGraph(options.doNotTouch);
  }

  async run(): Promise<ExploreResult> {
    const size = await this.driver.screenSize();
    this.area = { width: size.width, height: size.height };
    let obs = await this.restart();
    if (obs.outside) throw new Error(`${this.options.package} did not come to the front when it was opened`);
    let end: ExploreEnd | null = null;
    while (end === null) {
      if (obs.outside) {
        obs = await this.returnToApp();
        if (obs.outside) throw new Error(`${this.options.package} did not come back to the front after a restart`);
        continue;
      }
      const node = await this.visit(obs);
      end = this.limitReached();
      if (end !== null) break;
      const control = this.graph.nextControl(node);
      if (control) {
        obs = await this.tryControl(node, obs, control);
        continue;
      }
      const next = await this.moveTowardsWork(node, obs);
      if (next === null) end = 'complete';
      else obs = next;
    }
    return {
      screens: this.graph.exploredScreens(),
      transitions: this.graph.exploredTransitions(),
      actions: this.actions,
      end: end ?? 'complete',
      untouched: this.graph.untouched(),
    };
  }

  private limitReached(): ExploreEnd | null {
    const o = this.options;
    if (o.signal?.aborted) return 'stopped';
    if (this.graph.screens.size >= o.maxScreens) return 'max_screens';
    if (o.maxActions !== undefined && this.actions >= o.maxActions) return 'max_actions';
    if (o.now() >= o.deadline) return 'max_minutes';
    return null;
  }

  private async observe(): Promise<Observation> {
    const app = await this.driver.currentApp();
    if (app?.package !== this.options.package) return { outside: true, screenId: OUTSIDE, content: '', visible: [], activity: null };
    const visible = await this.settledTree();
    return { outside: false, screenId: screenIdOf(visible), content: contentOf(visible), visible, activity: app.activity };
  }

  /** The tree once the screen has loaded: a loading screen is waited out, never recorded (§15). */
  private async settledTree(): Promise<UiElement[]> {
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    let visible = visibleElements(await this.driver.uiTree(), this.area);
    for (let waited = 0; isLoading(visible) && waited < LOADING_WAIT_MS && !this.options.signal?.aborted; waited += LOADING_POLL_MS) {
      await sleep(LOADING_POLL_MS);
      visible = visibleElements(await this.driver.uiTree(), this.area);
    }
    return visible;
  }

  private async acted(): Promise<void> {
    this.actions += 1;
    await this.options.onProgress?.({ screens: this.graph.screens.size, transitions: this.graph.transitionCount(), actions: this.actions });
  }

  /** Force-stops and opens the app: a fresh start on its first screen (one action), past any interrupting dialog. */
  private async restart(): Promise<Observation> {
    await this.driver.closeApp(this.options.package);
    await this.driver.openApp(this.options.package);
    this.trail = [];
    await this.acted();
    return this.dismissInterrupt(await this.observe());
  }

  /**
   * A fresh start shows the first screen; anything else in front of it (a "Rate us" dialog, a
   * promotion) is an interrupt: recorded once as a screen of its own, not explored (it does not
   * come back on a replay), and dismissed with BACK.
   */
  private async dismissInterrupt(obs: Observation): Promise<Observation> {
    const start = this.graph.startId;
    // A fresh start never opens on a dialog: one in front, even on the first start, is an interrupt.
    if (obs.outside || obs.screenId === start || !isWindowOverScreen(obs.visible, this.area)) return obs;
    const { node, isNew } = this.graph.visit(obs.screenId, { title: titleOf(obs.visible, this.area, obs.activity), activity: obs.activity, visible: obs.visible, path: [] });
    if (isNew) {
      node.interrupt = true;
      node.unreachable = true;
      await this.options.onNewScreen?.(node.id);
    }
    if (!node.interrupt) return obs;
    await this.back();
    const after = await this.observe();
    this.graph.record(node.id, { type: 'back', element: null }, after.outside ? OUTSIDE : after.screenId);
    return after;
  }

  private async visit(obs: Observation): Promise<ScreenNode> {
    const { node, isNew } = this.graph.visit(obs.screenId, { title: titleOf(obs.visible, this.area, obs.activity), activity: obs.activity, visible: obs.visible, path: [...this.trail] });
    // From a known screen on, its recorded path is the way here: trails stay short and replayable.
    this.trail = [...node.path];
    if (isNew) await this.options.onNewScreen?.(node.id);
    return node;
  }

  private async tap(element: UiElement): Promise<void> {
    const b = element.bounds;
    const visible = { left: Math.max(0, b.left), top: Math.max(0, b.top), right: Math.min(this.area.width, b.right), bottom: Math.min(this.area.height, b.bottom) };
    const { x, y } = centerOf(visible);
    await this.driver.tap(x, y);
    await this.acted();
  }

  private async back(): Promise<void> {
    await this.driver.pressKey('BACK');
    await this.acted();
  }

  /** Taps a control once and learns what it did: another screen, a change on this one, or nothing (stagnation). */
  private async tryControl(node: ScreenNode, before: Observation, control: Control): Promise<Observation> {
    const step: PathStep = { type: 'tap', element: actionElement(control.element) };
    await this.tap(control.element);
    let after = await this.observe();
    // A field raised the keyboard: what it covers left the tree, which is not another screen. BACK puts it away.
    if (control.element.editable && !after.outside && after.screenId !== node.id && isCoveredPart(after.visible, before.visible)) {
      await this.back();
      after = await this.observe();
    }
    this.trail.push(step);
    if (after.outside || after.screenId !== node.id) {
      control.status = 'done';
      this.graph.record(node.id, step, after.screenId);
    } else if (after.content !== before.content) {
      control.status = 'done';
    } else {
      control.noChange += 1;
      control.status = control.noChange >= STAGNATION_LIMIT ? 'dead' : 'retry';
    }
    return after;
  }

  /** Outside the app (a control opened another app, or BACK left it): BACK once, then a restart. */
  private async returnToApp(): Promise<Observation> {
    await this.back();
    const obs = await this.observe();
    if (!obs.outside) return obs;
    return this.restart();
  }

  /**
   * One move towards the nearest screen with controls left: the first step of the shortest
   * known route, or a restart and replay of the target's path when that is shorter or no route
   * is known. Null when no screen has work left.
   */
  private async moveTowardsWork(node: ScreenNode, obs: Observation): Promise<Observation | null> {
    const byReplay = this.graph.nearestByReplay();
    if (!byReplay) return null;
    const route = this.graph.routeToWork(node.id);
    // BACK is tried once on each screen (but the first, where it leaves the app): the cheap way up.
    if (!this.graph.backEdges.has(node.id) && node.id !== this.graph.startId && (!route || route.length > 1)) return this.goBack(node);
    if (route && route.length <= byReplay.path.length + 1) {
      if (route.first.type === 'back') return this.goBack(node);
      const key = route.first.key;
      const element = obs.visible.find((e) => elementKeyOf(e) === key);
      if (element) {
        const step: PathStep = { type: 'tap', element: actionElement(element) };
        await this.tap(element);
        const after = await this.observe();
        this.trail.push(step);
        this.graph.record(node.id, step, after.outside ? OUTSIDE : after.screenId);
        return after;
      }
      // The control is not on the screen this time: forget that way from here.
      this.graph.tapEdges.get(node.id)?.delete(key);
      return obs;
    }
    return this.replayTo(byReplay);
  }

  private async goBack(node: ScreenNode): Promise<Observation> {
    await this.back();
    const after = await this.observe();
    this.trail.push({ type: 'back', element: null });
    this.graph.record(node.id, { type: 'back', element: null }, after.outside ? OUTSIDE : after.screenId);
    return after;
  }

  /** Restarts the app and replays the screen's recorded path; a screen that cannot be reached this way is given up after a few tries. */
  private async replayTo(target: ScreenNode): Promise<Observation> {
    let obs = await this.restart();
    for (const step of target.path) {
      if (obs.outside || this.limitReached() !== null) break;
      const from = obs.screenId;
      if (step.type === 'back') {
        await this.back();
      } else {
        const element = findStepElement(obs.visible, step.element);
        if (!element) break;
        await this.tap(element);
      }
      obs = await this.observe();
      this.trail.push(step);
      if (this.graph.screens.has(from)) this.graph.record(from, step, obs.outside ? OUTSIDE : obs.screenId);
    }
    if (obs.screenId !== target.id) {
      target.navFailures += 1;
      if (target.navFailures >= NAV_FAILURE_LIMIT) target.unreachable = true;
    }
    return obs;
  }
}

/** How long a loading screen is waited out, and how often it is looked at meanwhile. */
const LOADING_WAIT_MS = 30_000;
const LOADING_POLL_MS = 250;

/** A screen that shows only a progress indicator is still loading. */
export function isLoading(visible: UiElement[]): boolean {
  return visible.length > 0 && visible.every((e) => /ProgressBar$/.test(e.class) || (!e.clickable && !e.editable && e.text === '' && e.content_desc === '' && !/(TextView|ImageView|Button)$/.test(e.class))) && visible.some((e) => /ProgressBar$/.test(e.class));
}

/** A dialog's window: its elements together cover well under the whole screen. */
function isWindowOverScreen(visible: UiElement[], area: ScreenArea): boolean {
  if (visible.length === 0) return false;
  const left = Math.min(...visible.map((e) => e.bounds.left));
  const top = Math.min(...visible.map((e) => e.bounds.top));
  const right = Math.max(...visible.map((e) => e.bounds.right));
  const bottom = Math.max(...visible.map((e) => e.bounds.bottom));
  return (right - left) * (bottom - top) < area.width * area.height * 0.7;
}

/** The tree after a tap is the one before with some elements gone (a keyboard covers them), the rest where they were. */
function isCoveredPart(after: UiElement[], before: UiElement[]): boolean {
  const seen = new Set(before.map((e) => `${elementKeyOf(e)}|${JSON.stringify(e.bounds)}`));
  return after.length < before.length && after.every((e) => seen.has(`${elementKeyOf(e)}|${JSON.stringify(e.bounds)}`));
}

/** The element a recorded step tapped, on the screen as it is now: same control, nearest to where it was. */
export function findStepElement(visible: UiElement[], wanted: ActionElement): UiElement | undefined {
  const key = elementKeyOf(wanted);
  const candidates = visible.filter((e) => elementKeyOf(e) === key && (e.clickable || e.editable));
  const distance = (e: UiElement) => Math.abs(e.bounds.left - wanted.bounds.left) + Math.abs(e.bounds.top - wanted.bounds.top);
  return candidates.sort((a, b) => distance(a) - distance(b))[0];
}

/** Restarts the app and replays a recorded path; answers the screen it ends on (null outside the app). For tests and tools. */
export async function replayPath(driver: DeviceDriver, pkg: string, path: PathStep[]): Promise<string | null> {
  const size = await driver.screenSize();
  const area = { width: size.width, height: size.height };
  await driver.closeApp(pkg);
  await driver.openApp(pkg);
  for (const step of path) {
    if (step.type === 'back') {
      await driver.pressKey('BACK');
      continue;
    }
    const element = findStepElement(visibleElements(await driver.uiTree(), area), step.element);
    if (!element) return null;
    const { x, y } = centerOf(element.bounds);
    await driver.tap(x, y);
  }
  const app = await driver.currentApp();
  if (app?.package !== pkg) return null;
  return screenIdOf(visibleElements(await driver.uiTree(), area));
}
