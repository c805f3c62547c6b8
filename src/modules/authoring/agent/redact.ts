// Secrets never enter a prompt or a message (decisions.md §13): every text the agent sends
// to the model or stores as a message passes through here. The credentials the service
// issues have fixed shapes, so they are found by shape; the run's own token and the model
// key by value as well. Password fields of a UI tree are masked where the tree is read.
const SHAPES = [
  /svc_[0-9a-f]{48}/g, // API keys
  /sess_[0-9a-f]{48}/g, // sessions
  /svr_[0-9a-f]{64}/g, // run tokens
  /mcpt_[0-9a-f]{64}/g, // tool-server tokens
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /((?:https?|socks5h?):\/\/)[^\s:@/]+:[^\s@/]+@/gi, // user:password@ in a URL (proxy credentials)
];

export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const value of known) if (value.length >= 8) out = out.split(value).join('[redacted]');
  out = out.replace(SHAPES[0]!, '[redacted key]').replace(SHAPES[1]!, '[redacted session]').replace(SHAPES[2]!, '[redacted run token]').replace(SHAPES[3]!, '[redacted token]');
  out = out.replace(SHAPES[4]!, '$1[redacted]').replace(SHAPES[5]!, '$1[redacted]@');
  return out;
}

/** A UI element that holds a password: its text is never read out. */
export const isPasswordField = (e: { resource_id: string; class: string; content_desc: string; element_id?: string }) =>
  /pass(word|code)|pin_?code/i.test(`${e.resource_id} ${e.content_desc} ${e.element_id ?? ''}`);
