// Word n-grams for decontamination, normalised and hashed once. Normalisation (documented in
// docs/prismaforge.md): Unicode NFKC (full-width letters, ligatures and compatibility forms
// fold to their plain letters), lower case, then every run of characters that is not a
// letter or a digit (punctuation, symbols, whitespace, markup) separates words. An n-gram
// is n consecutive words. A test text of fewer than n words has none: it is matched as a
// whole instead — a training text whose normalised words are exactly its words is a hit
// (rule `whole_text`), so verbatim copies of short test instructions are caught without
// dropping every longer text that merely contains a short phrase. Each n-gram is hashed to a
// 64-bit key (two 32-bit multiply-xor lanes over per-word FNV-1a hashes) held in an
// open-addressing table of typed arrays: no allocation per lookup (a Map keyed by 53-bit
// doubles boxed every key and spent half the scan in the allocator and GC). A hash hit is
// confirmed word by word, so a collision can never drop a training sample.

const SPLIT = /[^\p{L}\p{N}]+/u;

/**
 * The words of `text` as decontamination compares them: NFKC, lower case, split on anything
 * that is not a Unicode letter or digit.
 */
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

// An n-gram's key is two polynomial hashes of its word hashes, Σ w_i·P^(n−1−i) mod 2^32,
// with different odd multipliers P: sliding the window one word is O(1) (drop the first
// word's term, multiply, add the next word), so a text costs one step per word, not n.
const PA = 0x01000193;
const PB = 0x5bd1e995;

function powMod32(p: number, e: number): number {
  let r = 1;
  for (let i = 0; i < e; i++) r = Math.imul(r, p);
  return r;
}

/** Calls visit(a, b, i) for the n-gram starting at every word i. */
function forEachGram(
  hashes: Uint32Array,
  n: number,
  visit: (a: number, b: number, i: number) => boolean | undefined,
): void {
  if (hashes.length < n) return;
  const topA = powMod32(PA, n - 1);
  const topB = powMod32(PB, n - 1);
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    a = (Math.imul(a, PA) + hashes[i]!) | 0;
    b = (Math.imul(b, PB) + (hashes[i]! ^ 0x85ebca6b)) | 0;
  }
  for (let i = 0; ; i++) {
    if (visit(a >>> 0, b >>> 0, i)) return;
    if (i + n >= hashes.length) return;
    const out = hashes[i]!;
    const inc = hashes[i + n]!;
    a = (Math.imul(a - Math.imul(out, topA), PA) + inc) | 0;
    b = (Math.imul(b - Math.imul(out ^ 0x85ebca6b, topB), PB) + (inc ^ 0x85ebca6b)) | 0;
  }
}

/** An open-addressing (linear probing) table from a 64-bit key to a position ≥ 0. */
class GramTable {
  private mask = (1 << 16) - 1;
  private a = new Uint32Array(1 << 16);
  private b = new Uint32Array(1 << 16);
  /** position + 1; 0 marks an empty slot. */
  private v = new Float64Array(1 << 16);
  size = 0;

  get(a: number, b: number): number {
    const mask = this.mask;
    for (let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const v = this.v[i]!;
      if (v === 0) return -1;
      if (this.a[i] === a && this.b[i] === b) return v - 1;
    }
  }

  /** Stores the first position seen for a key. */
  add(a: number, b: number, pos: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const mask = this.mask;
    for (let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      if (this.v[i] === 0) {
        this.a[i] = a;
        this.b[i] = b;
        this.v[i] = pos + 1;
        this.size++;
        return;
      }
      if (this.a[i] === a && this.b[i] === b) return;
    }
  }

  private grow(): void {
    const { a, b, v } = this;
    const cap = (this.mask + 1) * 2;
    this.mask = cap - 1;
    this.a = new Uint32Array(cap);
    this.b = new Uint32Array(cap);
    this.v = new Float64Array(cap);
    this.size = 0;
    for (let i = 0; i < v.length; i++) if (v[i] !== 0) this.add(a[i]!, b[i]!, v[i]! - 1);
  }
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

/** How a training text matched: a shared n-gram, or equal to a short test text as a whole. */
export type OverlapRule = 'ngram' | 'whole_text';

/** A training text's overlap with a test text: which one, and the words they share. */
export interface Overlap {
  test_id: string;
  test_set: string;
  /** The shared n-gram (or the whole short text), as normalised words joined by spaces. */
  ngram: string;
  rule: OverlapRule;
}

/** The test side: every n-gram of every test instruction, hashed once. */
export class TestNgramIndex {
  readonly n: number;
  private readonly grams = new GramTable(); // key → first position (doc·2^20 + word)
  private readonly docs: { id: string; set: string; words: string[] }[] = [];
  /** Test texts shorter than n words, by their normalised words joined by spaces → doc. */
  private readonly short = new Map<string, number>();
  /** Test instructions per set, and those shorter than n words (matched as whole texts). */
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
    if (words.length < this.n) {
      // An empty text has no words to match; the first test text of given words wins.
      const key = words.join(' ');
      if (words.length > 0 && !this.short.has(key)) this.short.set(key, doc);
      return;
    }
    forEachGram(hashesOf(words), this.n, (a, b, i) => {
      this.grams.add(a, b, doc * 1048576 + i);
      return false;
    });
  }

  get size(): number {
    return this.grams.size;
  }

  /**
   * The first n-gram `text` shares with a test instruction, or (for a text shorter than n
   * words) the short test instruction it equals as a whole; null when neither.
   */
  match(text: string): Overlap | null {
    const words = normaliseWords(text);
    const n = this.n;
    if (words.length < n) {
      if (this.short.size === 0) return null;
      const whole = words.join(' ');
      const at = this.short.get(whole);
      if (at === undefined) return null;
      const doc = this.docs[at]!;
      return { test_id: doc.id, test_set: doc.set, ngram: whole, rule: 'whole_text' };
    }
    let hit: Overlap | null = null;
    forEachGram(hashesOf(words), n, (a, b, i) => {
      const at = this.grams.get(a, b);
      if (at < 0) return false;
      const doc = this.docs[Math.floor(at / 1048576)]!;
      const pos = at % 1048576;
      for (let j = 0; j < n; j++) if (doc.words[pos + j] !== words[i + j]) return false;
      hit = {
        test_id: doc.id,
        test_set: doc.set,
        ngram: words.slice(i, i + n).join(' '),
        rule: 'ngram',
      };
      return true;
    });
    return hit;
  }
}
