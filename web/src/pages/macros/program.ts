// Block programs are JSON. The editor checks the syntax as you type; the service checks the
// program when it is saved and its 422 answer names the field at fault.
/** What `blocks` accepts: a program object, or an array (`[]`, the empty program). */
export type Program = Record<string, unknown> | unknown[];
export type Parsed = { ok: true; value: Program } | { ok: false; error: string };

export function parseProgram(text: string): Parsed {
  if (text.trim() === '') return { ok: false, error: 'Enter the program as JSON, for example [] for an empty one.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : 'cannot be read'}` };
  }
  // The API takes a program object, or [] (the empty program older clients send).
  if (value === null || typeof value !== 'object') return { ok: false, error: 'A program is a JSON object (or [] for an empty one).' };
  return { ok: true, value: value as Program };
}

export const formatProgram = (value: unknown): string => JSON.stringify(value ?? [], null, 2);
