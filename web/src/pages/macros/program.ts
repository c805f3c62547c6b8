// Block programs are JSON. The editor checks the syntax as you type; the service checks the
// program when it is saved and its 422 answer names the field at fault.
export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

export function parseProgram(text: string): Parsed {
  if (text.trim() === '') return { ok: false, error: 'Enter the program as JSON, for example [] for an empty one.' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : 'cannot be read'}` };
  }
}

export const formatProgram = (value: unknown): string => JSON.stringify(value ?? [], null, 2);
