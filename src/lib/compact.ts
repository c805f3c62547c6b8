// "Optional fields are omitted when empty" (service-api.md): drop null and undefined.
export function compact<T extends Record<string, unknown>>(record: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}
