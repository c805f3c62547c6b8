// The agent's device tools (decisions.md §13, §16): the entries of the devices module's action
// catalogue on the session's leased device, exactly as the tool server serves them, answered
// to the model as JSON text. The one thing added here is §13's rule that a secret never
// reaches a prompt: the text of a password field is masked in what the model reads.
import { type DeviceDriver, type DeviceVision, entryNamed } from '../../devices/index.js';
import { isPasswordField } from './redact.js';
import type { ToolOutcome } from './tool-outcome.js';

type Args = Record<string, unknown>;

/** Elements of a password field (anywhere in an answer) with their text masked. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(record).map(([k, v]) => [k, masked(v)]));
  const element = typeof record.resource_id === 'string' && typeof record.class === 'string' && typeof record.content_desc === 'string';
  if (element && record.editable === true && isPasswordField(record as Parameters<typeof isPasswordField>[0])) out.text = '[password field]';
  return out;
}

export async function runDeviceTool(name: string, args: Args, driver: DeviceDriver, owner: { userId: number }, vision: DeviceVision): Promise<ToolOutcome> {
  const answer = await entryNamed(name).run({ driver, owner, vision }, args);
  if (answer.image) {
    const { caption, base64 } = answer.image;
    return { content: `${caption} The image follows in the next message.`, summary: `screenshot: ${caption}`, screenshot: { base64, caption } };
  }
  return { content: answer.data ? JSON.stringify(masked(answer.data)) : answer.text, summary: answer.text };
}
