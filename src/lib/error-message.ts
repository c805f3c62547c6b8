// The sentence an error carries, for messages built around it ("… failed: <reason>"): its
// message when it is an Error, else the thrown value as text.
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
