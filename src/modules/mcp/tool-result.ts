// What a tool answers (decisions.md §12). Data goes out twice: as `structuredContent`, for
// clients that read the output schema, and as JSON text, for older ones. A failure is a
// result, never a protocol error: `isError`, one sentence a person can act on, and the
// contract's code in `_meta`, with no `structuredContent` so clients that validate output
// schemas accept it.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, type FieldError } from '../../core/errors.js';

export type ToolContent = CallToolResult['content'];

/**
 * What a tool's function returns: data matching its output schema (with items after its JSON
 * text, such as the pictures run_trace adds), or content of its own.
 */
export type ToolOutput = { data: Record<string, unknown>; more?: ToolContent } | { content: ToolContent };

export function toolResult(output: ToolOutput): CallToolResult {
  if ('content' in output) return { content: output.content };
  return { content: [{ type: 'text', text: JSON.stringify(output.data) }, ...(output.more ?? [])], structuredContent: output.data };
}

export function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], _meta: { code } };
}

const sentence = (errors: FieldError[]) => errors.map((e) => `${e.path} ${e.message}`).join('; ');

/** An error a service threw, as a tool result; null when it is not one of ours (a bug). */
export function appErrorResult(error: unknown): CallToolResult | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'validation_failed' && Array.isArray(error.extra.errors)) {
    return toolError(error.code, `The arguments are not valid: ${sentence(error.extra.errors as FieldError[])}.`);
  }
  return toolError(error.code, error.message);
}
