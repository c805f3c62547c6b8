// What a trace may not keep (decisions.md §17): typed text marked secret, and anything shaped
// like a credential the service issues (an API key, a run token, a session, a tool-server
// token, a password in a proxy URL), wherever a macro passed or an error quoted it.
export const SECRET_TEXT = '•••';

const SHAPES: [RegExp, string][] = [
  [/svc_[0-9a-f]{48}/g, '[redacted key]'],
  [/sess_[0-9a-f]{48}/g, '[redacted session]'],
  [/svr_[0-9a-f]{64}/g, '[redacted run token]'],
  [/mcpt_[0-9a-f]{64}/g, '[redacted token]'],
  [/((?:https?|socks5h?):\/\/)[^\s:@/]+:[^\s@/]+@/gi, '$1[redacted]@'],
];

/** What every shape above begins with: most texts (a resource id, a button's label) hold none and are left at once. */
const MAY_HOLD_SECRET = /svc_|sess_|svr_|mcpt_|:\/\//i;

export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  // A copy, so the trace keeps the arguments as they were called; every step passes here, so a plain loop.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = redactValue((value as Record<string, unknown>)[key]);
  return out;
}

/** The arguments as the trace keeps them: `text` of a `secret` call masked, credentials redacted. */
export function maskArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out = redactValue(args) as Record<string, unknown>;
  if (args.secret === true && typeof args.text === 'string') out.text = SECRET_TEXT;
  return out;
}

/**
 * Secret text a run typed, kept in memory only, so that where the screen later shows it (the
 * field's text in an element, an error listing what the screen showed, the last UI tree) the
 * trace shows "•••" instead. Very short secrets are not searched for: they would mask
 * ordinary words.
 */
export class TypedSecrets {
  private readonly known = new Set<string>();

  remember(args: Record<string, unknown>): void {
    if (args.secret === true && typeof args.text === 'string' && args.text.length >= 4) this.known.add(args.text);
  }

  hide(text: string): string {
    let out = text;
    for (const secret of this.known) out = out.split(secret).join(SECRET_TEXT);
    return out;
  }

  /** Every string in a JSON value, hidden. */
  hideIn<T>(value: T): T {
    if (this.known.size === 0) return value;
    return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? this.hide(v) : v))) as T;
  }
}
