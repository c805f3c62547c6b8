// The do-not-touch list: elements whose text, description or resource id says one of these
// words are never tapped, whatever else the explorer wants (decisions.md §13). Matching is by
// whole words, in any case, across spaces, underscores, hyphens and camelCase: "Sign out",
// `btn_sign_out`, `signOut` and "SIGN-OUT" all match "sign out"; "Deleted items" does not
// match "delete", and "Payment" does not match "pay".
import type { UiElement } from '../../devices/index.js';

export const DEFAULT_DO_NOT_TOUCH = ['sign out', 'log out', 'delete', 'remove', 'uninstall', 'pay', 'buy'] as const;

/** "btnSignOut" → "btn sign out"; ids lose their `package:id/` prefix. */
function words(value: string): string {
  const local = value.includes(':id/') ? value.slice(value.indexOf(':id/') + 4) : value;
  return local
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export type DoNotTouch = (element: Pick<UiElement, 'text' | 'content_desc' | 'resource_id'>) => string | null;

/** A matcher answering the phrase an element matched, or null. A phrase's words may also be written together ("logout"). */
export function doNotTouchMatcher(phrases: readonly string[]): DoNotTouch {
  const patterns = phrases
    .map((phrase) => words(phrase))
    .filter((phrase) => phrase !== '')
    .map((phrase) => ({ phrase, pattern: new RegExp(`(^| )${phrase.split(' ').map(escape).join(' ?')}( |$)`) }));
  return (element) => {
    const seen = [element.text, element.content_desc, element.resource_id].map(words);
    for (const { phrase, pattern } of patterns) if (seen.some((value) => pattern.test(value))) return phrase;
    return null;
  };
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
