// Qwen's byte-level BPE, written out here so that counting tokens costs a cold start almost
// nothing. Hugging Face's native tokenizer (npm `tokenizers`) needs 600-700 ms to build its
// tables from the 11 MB tokenizer.json, and ~300 ms even without the merges: more than
// `rubrica inspect` may take in all. This file applies the same model — the same added
// tokens, NFC, the same pre-tokenizer split and the same merge order — from a compact table
// derived once from that tokenizer.json (see qwen-bpe-table.ts), which loads in a few ms.
// tokens.test.ts checks it against the native tokenizer on real completions and on
// generated text aimed at the places two regex engines disagree.
//
// Only counting is needed, so the merge loop tracks token ids, never strings.

import { asciiPieceEnd, isAscii } from './ascii-pieces.ts';

/**
 * The merge table, ready to use, stored as is so that loading it runs no loop (at a cold
 * start even a 151k-step loop costs ~150 ms in V8's interpreter) and stays small (fresh
 * memory is slow to fault in on a VM): merges grouped by their left token — row `l` is
 * `rights[rowStart[l] .. rowStart[l+1]]`, sorted, with each merge's rank beside it. Rows are
 * short (956 at most for Qwen3), so a lookup is a binary search of a few steps.
 */
export interface BpeTable {
  /** Token id of each byte value (byte-level BPE starts from single bytes). */
  byteIds: Int32Array;
  /** Id of the token each merge makes, by merge rank. */
  mergedId: Int32Array;
  /** Row starts by left token id, one more than the vocabulary size. */
  rowStart: Int32Array;
  /** Right token ids, sorted within each row. */
  rights: Int32Array;
  /** The rank of the merge at the same position in `rights`. */
  ranks: Int32Array;
  /** Added tokens (`<think>`, `<|im_end|>` …): matched in the raw text, one token each. */
  addedTokens: string[];
}

/** Builds the table from merges in rank order, given as (left id, right id, merged id) triples. */
export function buildBpeTable(
  byteIds: Int32Array,
  merges: Int32Array,
  addedTokens: string[],
): BpeTable {
  const n = merges.length / 3;
  const left = (r: number) => merges[r * 3] as number;
  const right = (r: number) => merges[r * 3 + 1] as number;
  let maxLeft = 0;
  for (let r = 0; r < n; r++) maxLeft = Math.max(maxLeft, left(r));
  const order = Array.from({ length: n }, (_, r) => r).sort(
    (a, b) => left(a) - left(b) || right(a) - right(b),
  );
  const table: BpeTable = {
    byteIds,
    mergedId: new Int32Array(n),
    rowStart: new Int32Array(maxLeft + 2),
    rights: new Int32Array(n),
    ranks: new Int32Array(n),
    addedTokens,
  };
  order.forEach((rank, at) => {
    table.mergedId[rank] = merges[rank * 3 + 2] as number;
    table.rights[at] = right(rank);
    table.ranks[at] = rank;
    table.rowStart[left(rank) + 1] = at + 1;
  });
  // Rows without merges start where the previous row ended.
  for (let l = 1; l < table.rowStart.length; l++)
    table.rowStart[l] = Math.max(table.rowStart[l] as number, table.rowStart[l - 1] as number);
  return table;
}

// Oniguruma's `\s` (what the Rust tokenizer's regex means) is Unicode White_Space: unlike
// JavaScript's it includes U+0085 and excludes U+FEFF.
const WS = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
// `(?i:'s|'t|'re|'ve|'m|'ll|'d)`: Node 20 has no inline modifiers, so the case-insensitive
// contractions are spelled out, with the letters that case-fold onto them (ſ → s, K → k).
const CONTRACTIONS = "'[sSſ]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]";
/** Qwen2/3's pre-tokenizer pattern, in JavaScript's regex dialect. */
export const PRE_TOKENIZER = new RegExp(
  [
    CONTRACTIONS,
    '[^\\r\\n\\p{L}\\p{N}]?\\p{L}+',
    '\\p{N}',
    ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*`,
    `[${WS}]*[\\r\\n]+`,
    `[${WS}]+(?![^${WS}])`,
    `[${WS}]+`,
  ].join('|'),
  'gu',
);

/** A text's count and its spans' counts (BpeCounter.countWithSpans). */
export interface CountedSpans {
  total: number;
  spans: number[];
  /** Per span: summed from the text's pass (true) or counted on its own. */
  fromPass: boolean[];
}

/** Every piece of one text in order: where it starts and its tokens (added tokens are pieces). */
interface PieceLog {
  start: number[];
  tokens: number[];
  /** False when NFC changed a segment: offsets no longer match the caller's text. */
  stable: boolean;
}

/**
 * Pieces at a span's end that are counted again on their own (countWithSpans): the regex's
 * look-ahead from a piece reaches at most into the second piece after it; one more for margin.
 */
const SPAN_TAIL_PIECES = 3;

/** Counts tokens with one table; keeps a bounded cache of pieces it has counted. */
export class BpeCounter {
  private readonly byteIds: Int32Array;
  private readonly mergedId: Int32Array;
  private readonly rowStart: Int32Array;
  private readonly rights: Int32Array;
  private readonly ranks: Int32Array;
  private readonly added: RegExp | undefined;
  private readonly cache = new Map<string, number>();
  private readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(1024);

  constructor(table: BpeTable) {
    this.byteIds = table.byteIds;
    this.mergedId = table.mergedId;
    this.rowStart = table.rowStart;
    this.rights = table.rights;
    this.ranks = table.ranks;
    // Longest first, so that of two added tokens starting at one place the longer wins.
    const added = [...table.addedTokens].sort((a, b) => b.length - a.length);
    this.added = added.length
      ? new RegExp(added.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : undefined;
  }

  /** Tokens in `text`, as the Rust tokenizer counts them with add_special_tokens false. */
  count(text: string): number {
    // Lone surrogates reach Rust as U+FFFD too. (Node 20 has toWellFormed; TS's es2022 lib not.)
    const wellFormed = (text as unknown as { toWellFormed(): string }).toWellFormed();
    return this.countWellFormed(wellFormed, undefined);
  }

  /**
   * Tokens in `text` and in each of `spans` (UTF-16 offsets [start, end) into `text`), each
   * span counted as if it were the whole text — as count(text.slice(start, end)) — from the
   * one pass over `text` where it can: an answer SVG inside its completion is not encoded
   * twice. Pre-tokenizer pieces are found by a regex with no look-behind, so from a piece
   * boundary on, the span's pieces are the text's until the regex's look-ahead reaches the
   * span's end; the look-ahead never passes the second piece after the one being matched
   * (a whitespace run splits into at most three pieces), so the span's pieces up to a few
   * before its end are summed from the pass and only its tail is counted again. A span that
   * does not start on a piece boundary, or text that NFC changes (offsets would move), is
   * counted on its own. tokens.test.ts checks both ways agree on real and fuzzed text.
   */
  countWithSpans(text: string, spans: readonly (readonly [number, number])[]): CountedSpans {
    const wellFormed = (text as unknown as { isWellFormed(): boolean }).isWellFormed();
    const pieces: PieceLog = { start: [], tokens: [], stable: wellFormed };
    const total = wellFormed ? this.countWellFormed(text, pieces) : this.count(text); // offsets of a repaired text are not the caller's
    const fromPass: boolean[] = [];
    const counted = spans.map(([start, end]) => {
      const n = pieces.stable && wellFormed ? this.spanFromPieces(start, end, pieces, text) : -1;
      fromPass.push(n >= 0);
      return n >= 0 ? n : this.count(text.slice(start, end));
    });
    return { total, spans: counted, fromPass };
  }

  /** The span's count from the logged pieces, or -1 when it does not start on a piece. */
  private spanFromPieces(start: number, end: number, log: PieceLog, text: string): number {
    if (end <= start) return 0;
    const starts = log.start;
    // First piece starting at `start` (binary search; pieces are in text order).
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    if (starts[lo] !== start) return -1;
    const first = lo;
    // Pieces that end at or before `end`: those whose successor starts at or before it.
    hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= end) lo = mid + 1;
      else hi = mid;
    }
    // starts[lo - 1] <= end: pieces first .. lo - 2 end at or before it. Keep all but the
    // last SPAN_TAIL_PIECES of them; the rest of the span is counted on its own.
    const keep = Math.max(first, lo - 1 - SPAN_TAIL_PIECES);
    let sum = 0;
    for (let i = first; i < keep; i++) sum += log.tokens[i]!;
    const tailFrom = keep < starts.length ? Math.min(starts[keep]!, end) : end;
    return sum + this.count(text.slice(tailFrom, end));
  }

  private countWellFormed(wellFormed: string, log: PieceLog | undefined): number {
    if (!this.added) return this.countSegment(wellFormed, 0, log);
    let total = 0;
    let from = 0;
    this.added.lastIndex = 0;
    for (const m of wellFormed.matchAll(this.added)) {
      total += this.countSegment(wellFormed.slice(from, m.index), from, log) + 1;
      if (log) {
        log.start.push(m.index);
        log.tokens.push(1);
      }
      from = m.index + m[0].length;
    }
    return total + this.countSegment(wellFormed.slice(from), from, log);
  }

  /** `base`: where the segment starts in the text; `log`, when given, gets every piece. */
  private countSegment(segment: string, base: number, log: PieceLog | undefined): number {
    if (segment.length === 0) return 0;
    if (isAscii(segment)) return this.countAsciiSegment(segment, base, log);
    const text = segment.normalize('NFC');
    if (log && text !== segment) log.stable = false;
    let total = 0;
    let end = 0;
    for (const m of text.matchAll(PRE_TOKENIZER)) {
      // The pattern covers every character; a gap would still be its own piece.
      if (m.index > end) total += this.logged(text.slice(end, m.index), base + end, log);
      total += this.logged(m[0], base + m.index, log);
      end = m.index + m[0].length;
    }
    if (end < text.length) total += this.logged(text.slice(end), base + end, log);
    return total;
  }

  /** countSegment for ASCII text (NFC leaves it as it is), split by a scan, not the regex. */
  private countAsciiSegment(text: string, base: number, log: PieceLog | undefined): number {
    let total = 0;
    for (let at = 0; at < text.length; ) {
      const end = asciiPieceEnd(text, at);
      // A one-byte piece is one token; longer ones go through the cache and the merges.
      const n = end - at === 1 ? 1 : this.countPiece(text.slice(at, end));
      if (log) {
        log.start.push(base + at);
        log.tokens.push(n);
      }
      total += n;
      at = end;
    }
    return total;
  }

  private logged(piece: string, at: number, log: PieceLog | undefined): number {
    const n = this.countPiece(piece);
    if (log) {
      log.start.push(at);
      log.tokens.push(n);
    }
    return n;
  }

  private countPiece(piece: string): number {
    const known = this.cache.get(piece);
    if (known !== undefined) return known;
    const n = this.merge(this.utf8(piece));
    if (this.cache.size >= 100_000) this.cache.clear(); // bounded: hostile text varies forever
    this.cache.set(piece, n);
    return n;
  }

  private utf8(piece: string): Uint8Array {
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const { written } = this.encoder.encodeInto(piece, this.bytes);
    return this.bytes.subarray(0, written);
  }

  /** Rank of merging (left, right), or -1 when the pair is not a merge. */
  private rank(left: number, right: number): number {
    if (left + 1 >= this.rowStart.length) return -1;
    let lo = this.rowStart[left] as number;
    let hi = (this.rowStart[left + 1] as number) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = this.rights[mid] as number;
      if (r === right) return this.ranks[mid] as number;
      if (r < right) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Applies merges lowest rank first (leftmost first among equals) until none applies, and
   * returns how many symbols remain. Symbols form a linked list; candidate merges sit in a
   * binary heap keyed by (rank, position) and are checked again when popped, so a piece of
   * n bytes costs O(n log n) — a 128 KiB run of letters stays cheap.
   */
  private merge(bytes: Uint8Array): number {
    const n = bytes.length;
    if (n <= 1) return n;
    const id = new Int32Array(n);
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      id[i] = this.byteIds[bytes[i] as number] as number;
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
    }
    const heap = new MergeHeap();
    const offer = (i: number) => {
      const j = next[i] as number;
      if (j < 0) return;
      const r = this.rank(id[i] as number, id[j] as number);
      if (r >= 0) heap.push(r, i, id[i] as number, id[j] as number);
    };
    for (let i = 0; i < n - 1; i++) offer(i);
    let symbols = n;
    while (heap.size > 0) {
      const { rank, pos, left, right } = heap.pop();
      const j = next[pos] as number;
      // Stale: this symbol or its neighbour changed since the candidate was offered.
      if (id[pos] !== left || j < 0 || id[j] !== right) continue;
      id[pos] = this.mergedId[rank] as number;
      id[j] = -1;
      const after = next[j] as number;
      next[pos] = after;
      if (after >= 0) prev[after] = pos;
      symbols--;
      if ((prev[pos] as number) >= 0) offer(prev[pos] as number);
      offer(pos);
    }
    return symbols;
  }
}

/** A min-heap of merge candidates ordered by rank, then position. */
class MergeHeap {
  private rank: number[] = [];
  private pos: number[] = [];
  private left: number[] = [];
  private right: number[] = [];
  size = 0;

  push(rank: number, pos: number, left: number, right: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(rank, pos, this.rank[parent] as number, this.pos[parent] as number)) break;
      this.set(i, parent);
      i = parent;
    }
    this.rank[i] = rank;
    this.pos[i] = pos;
    this.left[i] = left;
    this.right[i] = right;
  }

  pop(): { rank: number; pos: number; left: number; right: number } {
    const top = {
      rank: this.rank[0] as number,
      pos: this.pos[0] as number,
      left: this.left[0] as number,
      right: this.right[0] as number,
    };
    const last = --this.size;
    if (last > 0) {
      const rank = this.rank[last] as number;
      const pos = this.pos[last] as number;
      const left = this.left[last] as number;
      const right = this.right[last] as number;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= last) break;
        const other = child + 1;
        if (
          other < last &&
          this.less(
            this.rank[other] as number,
            this.pos[other] as number,
            this.rank[child] as number,
            this.pos[child] as number,
          )
        )
          child = other;
        if (!this.less(this.rank[child] as number, this.pos[child] as number, rank, pos)) break;
        this.set(i, child);
        i = child;
      }
      this.rank[i] = rank;
      this.pos[i] = pos;
      this.left[i] = left;
      this.right[i] = right;
    }
    return top;
  }

  private less(rankA: number, posA: number, rankB: number, posB: number): boolean {
    return rankA < rankB || (rankA === rankB && posA < posB);
  }

  private set(to: number, from: number): void {
    this.rank[to] = this.rank[from] as number;
    this.pos[to] = this.pos[from] as number;
    this.left[to] = this.left[from] as number;
    this.right[to] = this.right[from] as number;
  }
}
