// Word n-grams for decontamination, normalised and hashed once. Normalisation (documented in
// docs/prismaforge.md): Unicode NFKC (full-width letters, ligatures and compatibility forms
// fold to their plain letters), lower case, then every run of characters that is not a
// letter or a digit (punctuation, symbols, whitespace, markup) separates words. An n-gram
// is n consecutive words; a text of fewer than n words has none. Each n-gram is hashed to a
// 53-bit number (two 32-bit multiply-xor lanes over per-word FNV-1a hashes) so the test
// side is a Map of numbers; a hash hit is confirmed word by word, so a collision can never
// drop a training sample.

const SPLIT = /[^\p{L}\p{N}]+/u;

export function normaliseWords(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().split(SPLIT);
  // split leaves an empty string at either end when the text starts or ends with a separator.
  if (words.length && words[0] === '') words.shift();
  if (words.length && words[words.length - 1] === '') words.pop();
  return words;
}

function wordHash(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) {
    h ^= w.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The 53-bit hash of words[start … start+n). */
function gramHash(hashes: Uint32Array, start: number, n: number): number {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = start; i < start + n; i++) {
    const w = hashes[i]!;
    a = Math.imul(a ^ w, 0x01000193);
    a ^= a >>> 15;
    b = Math.imul(b ^ w, 0xc2b2ae35) + i - start;
    b ^= b >>> 13;
  }
  return (a >>> 0) * 2097152 + ((b >>> 0) >>> 11);
}

function hashesOf(words: string[]): Uint32Array {
  const out = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) out[i] = wordHash(words[i]!);
  return out;
}

export interface TestText {
  id: string;
  /** Which test set (benchmark) it belongs to. */
  set: string;
  text: string;
}

export interface Overlap {
  test_id: string;
  test_set: string;
  /** The shared n-gram, as normalised words joined by spaces. */
  ngram: string;
}

/** The test side: every n-gram of every test instruction, hashed once. */
export class TestNgramIndex {
  readonly n: number;
  private readonly grams = new Map<number, number>(); // hash → position (doc·2^20 + word)
  private readonly docs: { id: string; set: string; words: string[] }[] = [];
  /** Test instructions per set, and those shorter than n words (they can match nothing). */
  readonly perSet = new Map<string, { texts: number; tooShort: number }>();

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be an integer ≥ 1, got ${n}`);
    this.n = n;
  }

  add(t: TestText): void {
    const words = normaliseWords(t.text);
    const doc = this.docs.length;
    this.docs.push({ id: t.id, set: t.set, words });
    const s = this.perSet.get(t.set) ?? { texts: 0, tooShort: 0 };
    s.texts++;
    if (words.length < this.n) s.tooShort++;
    this.perSet.set(t.set, s);
    const hashes = hashesOf(words);
    for (let i = 0; i + this.n <= words.length; i++) {
      const h = gramHash(hashes, i, this.n);
      if (!this.grams.has(h)) this.grams.set(h, doc * 1048576 + i);
    }
  }

  get size(): number {
    return this.grams.size;
  }

  /** The first n-gram `text` shares with a test instruction, or null. */
  match(text: string): Overlap | null {
    const words = normaliseWords(text);
    const n = this.n;
    if (words.length < n) return null;
    const hashes = hashesOf(words);
    for (let i = 0; i + n <= words.length; i++) {
      const at = this.grams.get(gramHash(hashes, i, n));
      if (at === undefined) continue;
      const doc = this.docs[Math.floor(at / 1048576)]!;
      const pos = at % 1048576;
      let same = true;
      for (let j = 0; j < n && same; j++) same = doc.words[pos + j] === words[i + j];
      if (same)
        return { test_id: doc.id, test_set: doc.set, ngram: words.slice(i, i + n).join(' ') };
    }
    return null;
  }
}
