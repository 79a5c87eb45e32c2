// Token logprobs of a chat answer, as the OpenAI-compatible wire carries them
// (`choices[0].logprobs.content`), and how to ask each provider for them. Only reading and
// asking live here; which token is the score and what its distribution is (the judge's
// business) is in src/judge/score-distribution.ts. Servers differ (../shared/JUDGE-SERVERS.md):
// the key may be null or absent, `top_logprobs` empty or absent, values -9999 or float32-min;
// this reader keeps what it is given and drops nothing but malformed entries.

/** One alternative at a position: its decoded text and natural-log probability. */
export interface TopLogprob {
  token: string;
  logprob: number;
}

/** One generated token, its logprob and the runners-up the server returned. */
export interface TokenLogprob extends TopLogprob {
  top: TopLogprob[];
}

/** What the server said about itself on this answer (for a record's provenance). */
export interface ServedBy {
  /** The model id the server answered as. */
  model?: string;
  /** OpenAI-style `system_fingerprint`, when the server sends one. */
  fingerprint?: string;
}

/** vLLM, Ollama and OpenAI refuse more than 20 alternatives per position. */
export const MAX_TOP_LOGPROBS = 20;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function alt(v: unknown): TopLogprob | null {
  if (!isObj(v) || typeof v.token !== 'string' || typeof v.logprob !== 'number') return null;
  return { token: v.token, logprob: v.logprob };
}

/** The token logprobs of a chat-completions body; null when the server sent none. */
export function readLogprobs(body: unknown): TokenLogprob[] | null {
  if (!isObj(body) || !Array.isArray(body.choices)) return null;
  const lp = (body.choices[0] as Record<string, unknown> | undefined)?.logprobs;
  if (!isObj(lp) || !Array.isArray(lp.content)) return null;
  const out: TokenLogprob[] = [];
  for (const item of lp.content) {
    const a = alt(item);
    if (!a) return null; // a position we cannot read breaks every offset after it
    const raw = isObj(item) && Array.isArray(item.top_logprobs) ? item.top_logprobs : [];
    out.push({ ...a, top: raw.map(alt).filter((x): x is TopLogprob => x !== null) });
  }
  return out;
}

/** The served model and fingerprint of a chat-completions body. */
export function readServedBy(body: unknown): ServedBy {
  if (!isObj(body)) return {};
  const out: ServedBy = {};
  if (typeof body.model === 'string') out.model = body.model;
  if (typeof body.system_fingerprint === 'string') out.fingerprint = body.system_fingerprint;
  return out;
}

/**
 * The provider options that make the request carry `logprobs: true, top_logprobs: n`
 * (the OpenAI-compatible provider copies unknown keys of its own name into the body; the
 * OpenAI provider has its own `logprobs` option). Providers without logprobs: nothing.
 */
export function logprobOptions(
  /** A Provider of types.ts (named as a string: types.ts imports this file's shapes). */
  provider: string,
  n: number,
): Record<string, Record<string, unknown>> {
  const top = Math.max(1, Math.min(MAX_TOP_LOGPROBS, Math.floor(n)));
  if (provider === 'openai') return { openai: { logprobs: top } };
  if (provider === 'anthropic' || provider === 'google') return {};
  return { [provider]: { logprobs: true, top_logprobs: top } };
}
