// <input type="datetime-local"> speaks local wall-clock time without a zone; the API speaks
// RFC 3339 in UTC. These convert between the two.
export function toLocalInput(iso: string, withSeconds = true): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const minutes = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return withSeconds ? `${minutes}:${pad(date.getSeconds())}` : minutes;
}

/** An empty or unreadable value becomes '' so the API's validation names the field. */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** A filter's "until" minute includes all of that minute. */
export function endOfMinute(value: string): string {
  const start = fromLocalInput(value);
  return start && !Number.isNaN(Date.parse(start)) ? new Date(Date.parse(start) + 59_999).toISOString() : start;
}
