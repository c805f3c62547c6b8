// An `anyOf` that failed, as one error. Ajv (allErrors) reports each branch's failure and then
// "must match a schema in anyOf"; a caller would read only the first branch's complaint ("must
// be integer" for a value that was meant to be the other branch). Folded, the answer names
// every accepted form: "must be integer, or must match pattern …".

export interface AjvBranchError {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
}

export function foldAnyOf<T extends AjvBranchError>(errors: T[]): T[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' && e.schemaPath);
  if (unions.length === 0) return errors;
  // A branch error about the same value belongs to its anyOf; one deeper inside the value
  // (a property of an object branch) still says something of its own and stays.
  const unionOf = (e: T) => unions.find((u) => u !== e && u.instancePath === e.instancePath && e.schemaPath?.startsWith(`${u.schemaPath}/`));
  const folded: T[] = [];
  for (const e of errors) {
    if (unionOf(e)) continue;
    if (!unions.includes(e)) {
      folded.push(e);
      continue;
    }
    const said = [...new Set(errors.filter((b) => unionOf(b) === e).map((b) => b.message ?? 'is invalid'))];
    folded.push(said.length > 0 ? { ...e, message: said.join(', or ') } : e);
  }
  return folded;
}
