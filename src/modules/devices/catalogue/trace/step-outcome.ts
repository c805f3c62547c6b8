// What a trace step keeps of how its action ended: the element its answer names, or its error,
// with credentials redacted (mask.ts).
import { AppError } from '../../../../core/errors.js';
import { messageOf } from '../../../../lib/error-message.js';
import { redactText } from './mask.js';
import type { TraceElement } from './step.js';

/** The element an answer names (`hit` of a tap, `element` of the others), as the trace keeps it. */
export function elementOf(answer: unknown): TraceElement | undefined {
  const holder = answer as { data?: Record<string, unknown> } & Record<string, unknown>;
  const found = (holder?.data?.hit ?? holder?.data?.element ?? holder?.hit ?? holder?.element) as Record<string, unknown> | null | undefined;
  if (!found || typeof found !== 'object' || !found.bounds) return undefined;
  return { text: redactText(String(found.text ?? '')), resource_id: String(found.resource_id ?? ''), desc: String(found.content_desc ?? ''), class: String(found.class ?? ''), bounds: found.bounds as TraceElement['bounds'] };
}

export const errorOf = (error: unknown) => ({ code: error instanceof AppError ? error.code : 'error', message: redactText(messageOf(error)) });
