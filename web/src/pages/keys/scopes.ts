// The scopes of service-api.md ("Scopes"), with the label and reach the contract gives.
import type { ExpiresIn, Scope } from '../../api/types';

export const SCOPE_INFO: { scope: Scope; label: string; reach: string }[] = [
  { scope: 'devices:control', label: 'Control devices', reach: 'List devices and groups; drive cloud devices from AI clients.' },
  { scope: 'macros:run', label: 'Run macros', reach: 'Read and push macro code; start, check and stop runs.' },
  { scope: 'macros:author', label: 'Author macros', reach: 'Authoring-agent sessions from AI clients (spends AI credits).' },
  { scope: 'maps:read', label: 'Read maps', reach: "Read an app's learned menu map." },
  { scope: 'runs:read', label: 'Read runs', reach: 'List runs, read one run and its logs.' },
];

export const EXPIRY_CHOICES: { value: ExpiresIn & string; label: string }[] = [
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '1y', label: '1 year' },
  { value: 'never', label: 'Never' },
];

/** The contract's AI-client integration: never expires, these three scopes ticked. */
export const AI_CLIENT_PRESET = { name: 'AI client', expires_in: 'never' as const, scopes: ['devices:control', 'macros:run', 'maps:read'] as Scope[] };
