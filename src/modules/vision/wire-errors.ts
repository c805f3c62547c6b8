// The matcher's typed failures, carried across a thread boundary as plain data and made the
// same errors again on the other side: structured cloning keeps an Error's message but not its
// class, status or code, and a route must still answer 422 `template_unusable` or 503.
import { messageOf } from '../../lib/error-message.js';
import { TemplateUnusableError, VisionUnavailableError } from './errors.js';

export type WireError = { kind: 'template_unusable'; reason: string } | { kind: 'vision_unavailable'; engine: 'opencv' | 'ocr'; reason: string };

export function toWire(error: unknown): WireError {
  if (error instanceof TemplateUnusableError) return { kind: 'template_unusable', reason: error.reason };
  if (error instanceof VisionUnavailableError) return { kind: 'vision_unavailable', engine: error.engine, reason: error.reason };
  return { kind: 'vision_unavailable', engine: 'opencv', reason: messageOf(error) };
}

export function fromWire(error: WireError): Error {
  return error.kind === 'template_unusable' ? new TemplateUnusableError(error.reason) : new VisionUnavailableError(error.engine, error.reason);
}
