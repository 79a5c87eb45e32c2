// Keeps judge fixtures written on the old 0.01 grid meaning what they said once the default
// scoring became `auto` (issue 37). A judge asked for one digit 0–9 (the request's schema
// offers the digit enum) whose scripted answer writes a score on the grid (a number in [0,1])
// is answered as a server would answer a judge that means that score: the digit written is
// the likelier of the two digits around 9·s, and — when the request asked for logprobs — the
// token logprobs (vLLM shape, Qwen tokens) put the rest of the mass on the other one, so the
// expected score Σ p·v is s again (to rounding, ~1e-16). Without logprobs (Anthropic, Gemini,
// or a client that did not ask) the judge reads the written digit ÷ 9: the greedy-digit
// resolution of docs/rubrics-and-judging.md.
//
// Replies that carry `logprobs` of their own (digitJudge) or say `asWritten` pass unchanged,
// and so does any number outside [0,1] (a digit test's 7, or an invalid 1.7 a test scripts
// on purpose).
import type { ContentReply } from './model-double-answers.ts';
import type { DigitLaw } from './model-double-logprobs.ts';
import { tokenLogprobs } from './model-double-logprobs.ts';
import type { DoubleRequest } from './model-double-request.ts';

const DIGIT_ENUM = '"enum":[0,1,2,3,4,5,6,7,8,9]';

/** True when the request asks for one-digit scores (expected or auto scoring). */
export function asksDigits(req: DoubleRequest): boolean {
  return req.schema !== undefined && JSON.stringify(req.schema).includes(DIGIT_ENUM);
}

/**
 * The expected score a reader computes from this two-digit law sent in vLLM's shape: each
 * p becomes logprob ln p on the wire and exp(ln p) again, the sampled (likelier) digit's mass
 * is summed first, and Σ p·v runs over the digits in ascending order — the float operations
 * of src/judge/score-distribution.ts and ask.ts, in their order.
 */
function readBack(lo: number, pLo: number, pHi: number): number {
  const mLo = Math.exp(Math.log(pLo));
  const mHi = Math.exp(Math.log(pHi));
  // The likelier digit is the one written (ties: the higher), so its mass is summed first.
  const z = pHi >= pLo ? 0 + mHi + mLo : 0 + mLo + mHi;
  return 0 + (mLo / z) * (lo / 9) + (mHi / z) * ((lo + 1) / 9);
}

/**
 * The two-digit law whose expectation is the grid score `s` (a point mass on a grid digit):
 * mass 1−f and f on the digits around 9·s. The probabilities are nudged by a few ulps until
 * the reader's float arithmetic gives back exactly `s`, so fixtures that compare a reward
 * with `toBe`/`toEqual` keep their exact meaning (the nudge is ~1e-15, far below any law a
 * test states).
 */
export function gridLaw(s: number): DigitLaw {
  let law = LAWS.get(s);
  if (!law) {
    law = searchLaw(s);
    if (LAWS.size > 10_000) LAWS.clear();
    LAWS.set(s, law);
  }
  return law;
}

/** Found laws by score: the search costs ~1 ms, and batch tests send the same scores often. */
const LAWS = new Map<number, DigitLaw>();

function searchLaw(s: number): DigitLaw {
  const x = s * 9;
  const lo = Math.floor(x + 1e-9);
  const f = x - lo;
  if (f < 1e-9 || lo >= 9) return { [String(Math.min(lo, 9))]: 1 };
  const eps = 2 ** -52;
  for (let r = 0; r <= 48; r++)
    for (let i = -r; i <= r; i++)
      for (const j of [-r, r]) {
        for (const [a, b] of [
          [i, j],
          [j, i],
        ] as const) {
          const pLo = (1 - f) * (1 + a * eps);
          const pHi = f * (1 + b * eps);
          if (readBack(lo, pLo, pHi) === s) return { [String(lo)]: pLo, [String(lo + 1)]: pHi };
        }
      }
  return { [String(lo)]: 1 - f, [String(lo + 1)]: f };
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const onGrid = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
const likeliest = (law: DigitLaw) =>
  Number(Object.entries(law).sort((a, b) => b[1] - a[1] || Number(b[0]) - Number(a[0]))[0]![0]);

/**
 * The reply rewritten to the digit scale, or the reply itself when it is not a grid answer to
 * a digit request. `withLogprobs`: the API can carry logprobs (OpenAI-compatible).
 */
export function gridToDigit(
  req: DoubleRequest,
  reply: ContentReply & { asWritten?: boolean },
  withLogprobs: boolean,
): ContentReply {
  if (reply.logprobs !== undefined || reply.asWritten || !asksDigits(req)) return reply;
  let value: unknown;
  try {
    value = JSON.parse(reply.content);
  } catch {
    return reply;
  }
  if (!isObj(value)) return reply;
  // Joint answers: {key: {reasoning, score}}; per-item answers: {reasoning, score}.
  const laws = new Map<string, DigitLaw>();
  const written = new Map<string, string>();
  const convert = (key: string, holder: Record<string, unknown>) => {
    if (!onGrid(holder.score)) return;
    const law = gridLaw(holder.score);
    holder.score = likeliest(law);
    laws.set(key, law);
    written.set(key, String(holder.score));
  };
  if ('score' in value) convert('score', value);
  else for (const [k, v] of Object.entries(value)) if (isObj(v)) convert(k, v);
  if (!laws.size) return reply;
  const content = JSON.stringify(value);
  const asked = req.body.logprobs === true || typeof req.body.top_logprobs === 'number';
  if (!withLogprobs || !asked) return { ...reply, content };
  const k = typeof req.body.top_logprobs === 'number' ? req.body.top_logprobs : 0;
  // vLLM's shape without its -9999 fill: the fill is what a reader drops first, and twenty
  // entries on every token make answers ~20× larger, which slows every batch test that
  // judges many pictures at once (the fill itself is tested with digitJudge).
  const tokens = tokenLogprobs(content, laws, written, 'vllm', k, 0, 'qwen').map((pos) => ({
    ...pos,
    top_logprobs: pos.top_logprobs?.filter((t) => t.logprob > -9000),
  }));
  return { ...reply, content, logprobs: { content: tokens } };
}
