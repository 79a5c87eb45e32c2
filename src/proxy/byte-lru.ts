// Kept answers in memory, bounded in bytes and in count (issue 42: 600 kept 1 MB answers
// once held 650 MB for good, because only the count was bounded). Least recently used go
// first; an entry larger than the whole budget is not kept at all.

export class ByteLru<V extends { size: number }> {
  readonly #map = new Map<string, V>();
  #bytes = 0;
  constructor(
    readonly maxBytes: number,
    readonly maxEntries: number,
  ) {}

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.size > this.maxBytes) return;
    this.#map.set(key, value);
    this.#bytes += value.size;
    while (this.#bytes > this.maxBytes || this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: string): void {
    const v = this.#map.get(key);
    if (v === undefined) return;
    this.#map.delete(key);
    this.#bytes -= v.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#map.size;
  }
}
