// What an exploration learns: screens (by structural identity, with the path that first
// reached each one from the app's start), and transitions between them.
import type { Bounds } from '../../devices/index.js';

/** The element an action touched, as the map shows it. */
export interface ActionElement {
  resource_id: string;
  text: string;
  content_desc: string;
  class: string;
  bounds: Bounds;
}

/** One step from the app's start: a tap on an element, or BACK. */
export type PathStep = { type: 'tap'; element: ActionElement } | { type: 'back'; element: null };

export interface ExploredScreen {
  screen_id: string;
  title: string;
  activity: string | null;
  element_count: number;
  /** The steps that first reached this screen from a fresh start of the app; replayable. */
  path: PathStep[];
}

export interface ExploredTransition {
  from: string;
  to: string;
  action: PathStep;
}

/** Why an exploration ended: every screen done, or the limit it reached. */
export type ExploreEnd = 'complete' | 'max_screens' | 'max_minutes' | 'max_actions' | 'stopped';

export interface ExploreResult {
  screens: ExploredScreen[];
  transitions: ExploredTransition[];
  /** Every input sent to the device: taps, BACK, and restarts of the app (a restart counts once). */
  actions: number;
  end: ExploreEnd;
  /** Elements never tapped because of the do-not-touch list: `screen_id`, the element, the phrase it matched. */
  untouched: { screen_id: string; element: ActionElement; phrase: string }[];
}

export interface ExploreProgress {
  screens: number;
  transitions: number;
  actions: number;
}
