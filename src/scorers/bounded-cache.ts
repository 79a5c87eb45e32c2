// A small insertion-ordered cache with a size bound: the G rollouts of one prompt share a
// text embedding, and the semantic and aesthetic scorers share one image embedding.
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      // Refresh recency: re-insert at the end.
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#map.size;
  }
}
