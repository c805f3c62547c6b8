// Text may show what the user typed elsewhere in the same app: `{screen.element}` or
// `{screen.element|fallback}`, e.g. "Thank you, {checkout.full_name|friend}!". This is how a
// static description answers a sign-in or an order with the user's own words.
import { fieldKey } from './state.js';

const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)(?:\|([^}]*))?\}/g;

export function resolveText(text: string, pkg: string, fields: Readonly<Record<string, string>>): string {
  if (!text.includes('{')) return text;
  return text.replace(PLACEHOLDER, (_match, screen: string, element: string, fallback: string | undefined) => {
    const value = fields[fieldKey(pkg, screen, element)];
    return value !== undefined && value !== '' ? value : (fallback ?? '');
  });
}
