// The sentences a locator failure says (decisions.md §16): the selector, the time waited, the
// app and activity in front, and up to ten texts or resource ids of the screen closest to what
// was asked, with a "Did you mean" when one is close, for example
// "No element text='Sign in' after 10.0 s on com.example.shop/.SignInActivity. On screen:
// 'Sign In', 'Email', 'Password'. Did you mean text='Sign In'?".
import type { CurrentApp } from '../hosts/types.js';
import type { TreeElement } from './matching.js';
import { describeSelector, type Selector } from './selector.js';
import type { ElementWithCenter } from '../actions/find-element.js';

const MAX_SHOWN = 10;
const MAX_AMBIGUOUS = 5;

/** `com.example.shop/.SignInActivity`, as `adb shell dumpsys` writes it. */
export function appInFront(app: CurrentApp | null): string {
  if (!app || app.package === '') return 'an unknown app';
  if (!app.activity) return app.package;
  const activity = app.activity.startsWith(`${app.package}.`) ? app.activity.slice(app.package.length) : app.activity;
  return `${app.package}/${activity}`;
}

const shortId = (id: string) => id.replace(/^.*:id\//, '');

/** Levenshtein distance, case-insensitive, capped for long strings. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase().slice(0, 200);
  const y = b.toLowerCase().slice(0, 200);
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= y.length; j += 1) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length];
}

/** 1 for the same text ignoring case, towards 0 for unrelated ones; containing the wanted text scores high. */
function likeness(candidate: string, wanted: string): number {
  const longest = Math.max(candidate.length, wanted.length, 1);
  const ratio = 1 - distance(candidate, wanted) / longest;
  return candidate.toLowerCase().includes(wanted.toLowerCase()) ? Math.max(ratio, 0.7) : ratio;
}

interface Wanted {
  key: 'text' | 'desc' | 'resource_id';
  value: string;
}

function wantedOf(s: Selector): Wanted | null {
  const text = s.text ?? s.text_contains ?? s.ocr_text ?? s.text_matches;
  if (text !== undefined) return { key: 'text', value: text };
  const desc = s.desc ?? s.desc_contains;
  if (desc !== undefined) return { key: 'desc', value: desc };
  if (s.resource_id !== undefined) return { key: 'resource_id', value: shortId(s.resource_id) };
  return null;
}

function candidates(tree: readonly TreeElement[], kind: Wanted['key'] | null): string[] {
  const values = tree.map((e) => (kind === 'resource_id' ? shortId(e.resource_id) : kind === 'desc' ? e.content_desc.trim() || e.text.trim() : e.text.trim() || e.content_desc.trim()));
  return [...new Set(values.filter((v) => v !== ''))];
}

export interface NotFoundFacts {
  selector: Selector;
  waitedMs: number;
  app: CurrentApp | null;
  tree: readonly TreeElement[];
  /** Why the last look did not act, when it was not "nothing matched". */
  note?: string;
  /** What was spent instead of a time (scroll_to: `3 swipes down`). */
  spent?: string;
}

export function notFoundMessage(f: NotFoundFacts): string {
  const wanted = wantedOf(f.selector);
  const pool = candidates(f.tree, wanted?.key ?? null);
  const ranked = wanted ? pool.map((v, i) => ({ v, i, score: likeness(v, wanted.value) })).sort((a, b) => b.score - a.score || a.i - b.i) : pool.map((v, i) => ({ v, i, score: 0 }));
  const shown = ranked.slice(0, MAX_SHOWN).map((c) => `'${c.v.length > 60 ? `${c.v.slice(0, 59)}…` : c.v}'`);
  const best = ranked[0];
  const guess = wanted && best && best.score >= 0.5 && best.v !== wanted.value ? ` Did you mean ${wanted.key}='${best.v}'?` : '';
  const seconds = f.spent ?? `${(f.waitedMs / 1000).toFixed(1)} s`;
  const screen = shown.length > 0 ? ` On screen: ${shown.join(', ')}.` : ' The screen shows no text.';
  return `No element ${describeSelector(f.selector)} after ${seconds} on ${appInFront(f.app)}.${f.note ? ` ${f.note}` : ''}${screen}${guess}`;
}

export function stillVisibleMessage(selector: Selector, waitedMs: number, app: CurrentApp | null): string {
  return `The element ${describeSelector(selector)} was still on the screen after ${(waitedMs / 1000).toFixed(1)} s on ${appInFront(app)}.`;
}

const brief = (e: ElementWithCenter) => {
  const b = e.bounds;
  const parts = [e.text.trim() ? `'${e.text.trim().slice(0, 60)}'` : e.content_desc.trim() ? `desc '${e.content_desc.trim().slice(0, 60)}'` : `(${e.class})`];
  if (e.resource_id) parts.push(shortId(e.resource_id));
  parts.push(`[${b.left},${b.top},${b.right},${b.bottom}]`);
  return parts.join(' ');
};

export function ambiguousMessage(selector: Selector, matches: readonly ElementWithCenter[]): string {
  const listed = matches.slice(0, MAX_AMBIGUOUS).map(brief).join('; ');
  const more = matches.length > MAX_AMBIGUOUS ? `; and ${matches.length - MAX_AMBIGUOUS} more` : '';
  return `The selector ${describeSelector(selector)} matches ${matches.length} elements: ${listed}${more}. Add index (0 to ${matches.length - 1}) or narrow the selector.`;
}
