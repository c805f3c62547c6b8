// Block programs are JSON: an object, or an array (`[]` is the empty program), as the
// service's schema says. The editor checks that as you type; the service checks the program
// itself when it is saved, and its 422 answer names the field at fault.
import type { paths } from '../../api/schema';

/** The body's `blocks` as the generated types spell `type: [object, array]`. */
export type Program = NonNullable<NonNullable<paths['/api/macros']['post']['requestBody']>['content']['application/json']['blocks']>;
export type Parsed = { ok: true; value: Program } | { ok: false; error: string };

export function parseProgram(text: string): Parsed {
  if (text.trim() === '') return { ok: false, error: 'Enter the program as JSON, for example [] for an empty one.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : 'cannot be read'}` };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, error: 'A block program is a JSON object, or [] for an empty one.' };
  // Checked above to be an object or an array; the generated type cannot name "any object".
  return { ok: true, value: value as Program };
}

export const formatProgram = (value: unknown): string => JSON.stringify(value ?? [], null, 2);
