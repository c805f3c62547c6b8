// Whether a key's scopes cover what a route needs. The scope list itself is in core/context.ts.
import type { Scope } from '../../core/context.js';

export { SCOPES, type Scope } from '../../core/context.js';

export function keyCovers(keyScopes: readonly Scope[], required: Scope | 'full' | null): boolean {
  if (keyScopes.length === 0 || required === null) return true;
  if (required === 'full') return false;
  return keyScopes.includes(required);
}
