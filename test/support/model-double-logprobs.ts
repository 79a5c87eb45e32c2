// A judge double that answers with token logprobs the way real servers return them
// (../shared/JUDGE-SERVERS.md): it fills the request's JSON Schema, writes each score as one
// digit drawn from a known law, splits the answer into tokens (Qwen-style: every digit its
// own token; or GPT-style, where " 7" is one token), and reports `choices[0].logprobs` in the
// shape of vLLM (sampled token first and unsorted, -9999 fill for masked tokens, values before
// temperature), SGLang (sorted top-k without the sampled token, values after temperature,
// float32-min fill) or Ollama (values before the grammar: forbidden tokens among the
// runners-up, sampled token reported on its own, no `logprobs` key when none were asked).
import type { DoubleHandler, DoubleReply } from './model-double-answers.ts';
import { fillSchema } from './model-double-answers.ts';
import type { DoubleRequest } from './model-double-request.ts';
import { seededRng } from './schema-random.ts';

export type LogprobShape = 'vllm' | 'sglang' | 'ollama';

/** Probability of each digit "0"…"9" (missing digits: 0). */
export type DigitLaw = Record<string, number>;

export interface DigitJudgeOptions {
  shape: LogprobShape;
  /** The law of the score at this item key (the path's first part; "score" in per-item mode). */
  law: (key: string) => DigitLaw;
  /** `gpt`: a space before a digit is part of its token (" 7"); default `qwen`. */
  tokenizer?: 'qwen' | 'gpt';
  /** Seed of the sampler used when the request's temperature is above 0. */
  seed?: number;
  /**
   * Per call, mix this share of a random one-hot digit into each law before sampling (how a
   * sampled reasoning moves the score distribution a little). Default 0.
   */
  jitter?: number;
  systemFingerprint?: string;
  /** Grid scale (greedy scoring, no digits asked): the written score is digit ÷ 9. */
}

const FLOAT32_MIN = -3.4028234663852886e38;
/** Tokens a grammar masks at a digit position (what torch.topk over -inf gives for Qwen). */
const MASKED = ['!', '"', '#', '$', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/'];

function tokenize(text: string, style: 'qwen' | 'gpt'): string[] {
  const re =
    style === 'qwen'
      ? /\p{N}|[^\r\n\p{L}\p{N}]?\p{L}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+/gu
      : / ?\p{N}+| ?\p{L}+| ?[^\s\p{L}\p{N}]+|\s+/gu;
  const out = text.match(re) ?? [];
  return out.join('') === text ? out : [...text];
}

interface Pos {
  token: string;
  logprob: number;
  top_logprobs?: { token: string; logprob: number; bytes: number[] }[];
  bytes: number[];
}

const bytes = (t: string) => [...Buffer.from(t, 'utf8')];
const entry = (token: string, logprob: number) => ({ token, logprob, bytes: bytes(token) });

/** The runners-up at one position, as `shape` reports them. */
function topAt(
  shape: LogprobShape,
  law: [string, number][],
  sampled: string,
  k: number,
  temperature: number,
): Pos {
  const sorted = [...law].sort((a, b) => b[1] - a[1]);
  const lpOf = (p: number) => (p > 0 ? Math.log(p) : Number.NEGATIVE_INFINITY);
  const sampledP = law.find(([t]) => t === sampled)?.[1] ?? 0;
  if (shape === 'vllm') {
    const seen = new Set<string>();
    const list: [string, number][] = [];
    for (const [t, p] of [[sampled, sampledP] as [string, number], ...sorted.slice(0, k)]) {
      if (seen.has(t)) continue;
      seen.add(t);
      list.push([t, p]);
    }
    const top = list.slice(0, k).map(([t, p]) => entry(t, Math.max(lpOf(p), -9999)));
    for (const m of MASKED) if (top.length < k && !seen.has(m)) top.push(entry(m, -9999));
    return { ...entry(sampled, Math.max(lpOf(sampledP), -9999)), top_logprobs: top };
  }
  if (shape === 'sglang') {
    // After temperature: p_T ∝ p^(1/T); the sampled token is not added to the list.
    const T = temperature > 0 ? temperature : 1;
    let z = 0;
    for (const [, p] of law) z += p ** (1 / T);
    const lpT = (p: number) =>
      p > 0 ? Math.max(Math.log(p ** (1 / T) / z), FLOAT32_MIN) : FLOAT32_MIN;
    const top = sorted.slice(0, k).map(([t, p]) => entry(t, lpT(p)));
    if (temperature > 0)
      for (const m of MASKED) if (top.length < k) top.push(entry(m, FLOAT32_MIN));
    return { ...entry(sampled, lpT(sampledP)), top_logprobs: top };
  }
  // Ollama: raw logits, before the grammar: 20 % of the mass on tokens the schema forbids.
  const raw: [string, number][] = [
    ...law.map(([t, p]) => [t, 0.8 * p] as [string, number]),
    ['"', 0.12],
    ['\n', 0.05],
    ['null', 0.03],
  ];
  raw.sort((a, b) => b[1] - a[1]);
  const sampledRaw = raw.find(([t]) => t === sampled)?.[1] ?? 0;
  return {
    ...entry(sampled, Math.log(sampledRaw)),
    top_logprobs: raw.slice(0, k).map(([t, p]) => entry(t, Math.log(p))),
  };
}

function certain(shape: LogprobShape, token: string, k: number, temperature: number): Pos {
  if (shape === 'ollama') {
    const top = [entry(token, -0.01), entry('"', -5), entry('\n', -6)].slice(0, k);
    return { ...entry(token, -0.01), top_logprobs: top };
  }
  const fill = shape === 'vllm' ? -9999 : FLOAT32_MIN;
  const top = [entry(token, 0)];
  if (shape === 'vllm' || temperature > 0)
    for (const m of MASKED) if (top.length < k && m !== token) top.push(entry(m, fill));
  return { ...entry(token, 0), top_logprobs: top };
}

/** A judge handler whose answers carry logprobs in one server's shape. */
export function digitJudge(o: DigitJudgeOptions): DoubleHandler {
  const random = seededRng(o.seed ?? 7);
  const style = o.tokenizer ?? 'qwen';
  return (req: DoubleRequest): DoubleReply => {
    if (!req.schema) return { status: 400, body: '{"error":{"message":"no schema"}}' };
    const temperature = typeof req.body.temperature === 'number' ? req.body.temperature : 1;
    const laws = new Map<string, [string, number][]>();
    const written = new Map<string, string>();
    const value = fillSchema(
      req.schema,
      (kind, path, schema) => {
        if (kind !== 'number' && kind !== 'integer') return undefined;
        const key = String(path.length > 1 ? path[0] : 'score');
        let law = Object.entries(o.law(key)).filter(([, p]) => p > 0);
        if (o.jitter) {
          const d = String(Math.floor(random() * 10));
          law = law.map(([t, p]) => [t, (1 - o.jitter!) * p] as [string, number]);
          const at = law.find(([t]) => t === d);
          if (at) at[1] += o.jitter;
          else law.push([d, o.jitter]);
        }
        let digit: string;
        if (temperature > 0) {
          let u = random();
          digit = law[law.length - 1]![0];
          for (const [t, p] of law) {
            u -= p;
            if (u < 0) {
              digit = t;
              break;
            }
          }
        } else digit = [...law].sort((a, b) => b[1] - a[1])[0]![0];
        const grid = Array.isArray(schema.enum) && schema.enum.length > 10;
        laws.set(key, law);
        written.set(key, digit);
        return grid ? Math.round((Number(digit) / 9) * 100) / 100 : Number(digit);
      },
      { digits: 'as-written' },
    );
    const content = style === 'gpt' ? JSON.stringify(value, null, 1) : JSON.stringify(value);
    const extra = o.systemFingerprint ? { systemFingerprint: o.systemFingerprint } : {};
    if (req.body.logprobs !== true) {
      // Nothing asked: vLLM and SGLang say null, Ollama leaves the key out.
      return {
        content,
        ...extra,
        asWritten: true,
        ...(o.shape === 'ollama' ? {} : { logprobs: null }),
      };
    }
    const k = typeof req.body.top_logprobs === 'number' ? req.body.top_logprobs : 0;
    const items = tokenLogprobs(
      content,
      new Map([...laws].map(([key, law]) => [key, Object.fromEntries(law)])),
      written,
      o.shape,
      k,
      temperature,
      style,
    );
    return { content, ...extra, logprobs: { content: items } };
  };
}

/**
 * `choices[0].logprobs.content` for `content` in one server's shape: the score digit of each
 * key (`written`, in the order the keys appear) gets its law's runners-up, every other token
 * is certain.
 */
export function tokenLogprobs(
  content: string,
  laws: ReadonlyMap<string, DigitLaw>,
  written: ReadonlyMap<string, string>,
  shape: LogprobShape,
  k: number,
  temperature: number,
  style: 'qwen' | 'gpt',
): Pos[] {
  // Where each score digit was written: the scan walks the keys in order.
  const positions = new Map<number, string>();
  let from = 0;
  for (const key of written.keys()) {
    const at = content.indexOf('"score":', content.indexOf(`"${key}"`, from));
    const d = content.slice(at + 8).search(/\d/) + at + 8;
    positions.set(d, key);
    from = d;
  }
  let offset = 0;
  return tokenize(content, style).map((tok) => {
    const digitAt = offset + tok.search(/\d/);
    offset += tok.length;
    const key = /\d/.test(tok) ? positions.get(digitAt) : undefined;
    const pos = key
      ? (() => {
          const prefix = tok.slice(0, tok.search(/\d/));
          const law = Object.entries(laws.get(key)!)
            .filter(([, p]) => p > 0)
            .map(([t, p]) => [prefix + t, p] as [string, number]);
          return topAt(shape, law, tok, k, temperature);
        })()
      : certain(shape, tok, k, temperature);
    if (k === 0) {
      if (shape === 'ollama') delete pos.top_logprobs;
      else pos.top_logprobs = [];
    }
    return pos;
  });
}
