// Huffman codes for deflate's dynamic blocks (RFC 1951 §3.2.2): code lengths limited to a
// maximum (15 bits for literals/lengths and distances, 7 for the code-length code) and the
// canonical codes those lengths stand for. Used by deflate-block.ts.

/**
 * Huffman code lengths for `freq`, none longer than `maxBits`. Two queues over the symbols
 * sorted by count give an optimal code in O(n) after the sort; when a code is too long the
 * counts are halved (rounding up) and the code rebuilt, which ends at worst in a balanced tree
 * (≤ 9 bits for 286 symbols). At least two symbols get a code, so every code is complete
 * (zlib's inflate rejects an incomplete code-length code).
 */
export function codeLengths(freq: Uint32Array, maxBits: number, out: Uint8Array): void {
  out.fill(0);
  const syms: number[] = [];
  for (let s = 0; s < freq.length; s++) if (freq[s]! > 0) syms.push(s);
  for (let s = 0; syms.length < 2; s++) if (freq[s] === 0) syms.push(s);
  const n = syms.length;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = Math.max(1, freq[syms[i]!]!);
  const keys = new Float64Array(n); // count · 512 + index: one native numeric sort, no comparator
  const order = new Int32Array(n);
  const weight = new Float64Array(2 * n - 1);
  const parent = new Int32Array(2 * n - 1);
  const depth = new Uint8Array(2 * n - 1);
  for (;;) {
    for (let i = 0; i < n; i++) keys[i] = w[i]! * 512 + i;
    keys.sort();
    for (let i = 0; i < n; i++) {
      order[i] = keys[i]! % 512;
      weight[i] = w[order[i]!]!;
    }
    let leaf = 0;
    let inner = n;
    const take = (next: number): number => {
      if (leaf < n && (inner >= next || weight[leaf]! <= weight[inner]!)) return leaf++;
      return inner++;
    };
    for (let next = n; next < 2 * n - 1; next++) {
      const a = take(next);
      const b = take(next);
      weight[next] = weight[a]! + weight[b]!;
      parent[a] = next;
      parent[b] = next;
    }
    depth[2 * n - 2] = 0;
    let longest = 0;
    for (let k = 2 * n - 3; k >= 0; k--) {
      depth[k] = depth[parent[k]!]! + 1;
      if (k < n && depth[k]! > longest) longest = depth[k]!;
    }
    if (longest <= maxBits) {
      for (let i = 0; i < n; i++) out[syms[order[i]!]!] = depth[i]!;
      return;
    }
    for (let i = 0; i < n; i++) w[i] = Math.floor((w[i]! + 1) / 2);
  }
}

/** Canonical codes for `lengths` (RFC 1951 §3.2.2), bit-reversed for LSB-first writing. */
export function canonicalCodes(lengths: Uint8Array, out: Uint16Array): void {
  const count = new Uint16Array(16);
  for (const l of lengths) count[l] = count[l]! + 1;
  count[0] = 0;
  const next = new Uint16Array(16);
  for (let b = 1, code = 0; b < 16; b++) {
    code = (code + count[b - 1]!) << 1;
    next[b] = code;
  }
  for (let s = 0; s < lengths.length; s++) {
    const l = lengths[s]!;
    if (l === 0) continue;
    let c = next[l]!;
    next[l] = c + 1;
    let r = 0;
    for (let i = 0; i < l; i++, c >>= 1) r = (r << 1) | (c & 1);
    out[s] = r;
  }
}
