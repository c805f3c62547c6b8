// A small least-recently-used cache of promises: concurrent requests for the same key share
// one computation, and a failed computation is forgotten so the next request tries again.
export class PromiseLru<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is the eviction order: move the hit to the young end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = compute();
    this.entries.set(key, pending);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return pending;
  }
}
