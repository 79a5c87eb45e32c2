// The judge's distribution over one score, read from the token logprobs the server returned.
// Servers disagree on the shape (../shared/JUDGE-SERVERS.md), so the reader assumes nothing
// about order, presence of the sampled token, or fill values:
//  1. the score token is found by character offset: the tokens' texts are laid end to end and
//     matched against the answer text (a thinking model's tokens may spell more than the
//     answer, so the answer is looked for at the end);
//  2. the candidates at that position are the runners-up plus the sampled token itself (SGLang
//     and Ollama may leave it out); an exact repeat of one entry counts once, two entries with
//     the same text (two ids decoding alike) are summed;
//  3. whatever the token held before the score (a leading space in `" 4"`) is taken off each
//     candidate, whitespace is ignored, and only candidates that read as an allowed answer
//     are kept — grammar-masked fill (-9999, float32-min) and Ollama's pre-grammar runners-up
//     (quotes, out-of-range digits) drop out here;
//  4. SGLang reports values after the request's temperature T: p ∝ exp(T · logprob) undoes it;
//  5. what is left is renormalised.
import type { TokenLogprob, TopLogprob } from '../models/logprobs.ts';

/** One possible answer and its probability. */
export interface ScoreMass {
  score: number;
  p: number;
}

export type DistributionRead =
  | { ok: true; distribution: ScoreMass[]; expected: number }
  | { ok: false; reason: string };

/** Below this a logprob is a server's fill for "impossible" (vLLM -9999, float32-min). */
const FILL_LOGPROB = -9000;

/** Where the answer text starts in the concatenated tokens, or -1. */
function answerStart(tokens: readonly TokenLogprob[], text: string): number {
  const all = tokens.map((t) => t.token).join('');
  if (all === text) return 0;
  if (all.endsWith(text)) return all.length - text.length;
  return all.indexOf(text);
}

/**
 * The distribution of the number written at [start, end) of `text`, over `allowed`
 * (answer text → score in [0,1]), from the token stream's logprobs. `temperature` is the
 * value the server applied before reporting (SGLang with a sampling request); 0 or 1: none.
 */
export function scoreDistribution(
  tokens: readonly TokenLogprob[] | null | undefined,
  text: string,
  span: { start: number; end: number },
  allowed: ReadonlyMap<string, number>,
  temperature = 0,
): DistributionRead {
  if (!tokens?.length) return { ok: false, reason: 'no logprobs returned' };
  const base = answerStart(tokens, text);
  if (base < 0) return { ok: false, reason: 'the logprob tokens do not spell the answer' };
  const at = base + span.start;
  let pos = 0;
  let hit: TokenLogprob | undefined;
  let tokStart = 0;
  for (const t of tokens) {
    if (at >= pos && at < pos + t.token.length) {
      hit = t;
      tokStart = pos;
      break;
    }
    pos += t.token.length;
  }
  if (!hit) return { ok: false, reason: 'no token at the score' };
  // The whole number must sit in this one token (a multi-digit score cannot be read here).
  if (base + span.end > tokStart + hit.token.length)
    return { ok: false, reason: 'the score spans several tokens' };
  if (!hit.top.length) return { ok: false, reason: 'no runners-up at the score token' };
  const prefix = hit.token.slice(0, at - tokStart);
  const suffix = hit.token.slice(base + span.end - tokStart);

  const seen = new Set<string>();
  const entries: TopLogprob[] = [];
  for (const c of [hit, ...hit.top]) {
    const id = `${c.token}\u0000${c.logprob}`;
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push(c);
  }
  const T = temperature > 0 ? temperature : 1;
  const mass = new Map<number, number>();
  for (const c of entries) {
    if (!Number.isFinite(c.logprob) || c.logprob <= FILL_LOGPROB) continue;
    let t = c.token;
    if (prefix && t.startsWith(prefix)) t = t.slice(prefix.length);
    if (suffix && t.endsWith(suffix)) t = t.slice(0, t.length - suffix.length);
    const v = allowed.get(t.trim());
    if (v === undefined) continue;
    mass.set(v, (mass.get(v) ?? 0) + Math.exp(T * c.logprob));
  }
  let z = 0;
  for (const m of mass.values()) z += m;
  if (!(z > 0)) return { ok: false, reason: 'no allowed answer among the runners-up' };
  const distribution = [...mass.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([score, m]) => ({ score, p: m / z }));
  let expected = 0;
  for (const d of distribution) expected += d.p * d.score;
  return { ok: true, distribution, expected };
}
