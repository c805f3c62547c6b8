// The key scopes of the contract. A key with none has full access.
export const SCOPES = ['devices:control', 'macros:run', 'macros:author', 'maps:read', 'runs:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function keyCovers(keyScopes: readonly Scope[], required: Scope | 'full' | null): boolean {
  if (keyScopes.length === 0 || required === null) return true;
  if (required === 'full') return false;
  return keyScopes.includes(required);
}
