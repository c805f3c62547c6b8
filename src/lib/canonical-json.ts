// Canonical JSON: object keys sorted by UTF-16 code units at every level (as RFC 8785 sorts
// them), no white space, numbers and strings as JSON.stringify writes them. Two values that
// differ only in key order or spacing have the same canonical JSON: a block program's
// `bundle_sha`, and the body an `Idempotency-Key` is bound to (decisions.md §19).
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
