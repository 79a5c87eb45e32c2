// One judge call for one picture: joint mode asks every rubric item in one structured call,
// per-item mode one call per item. Greedy scoring asks for a number on the 0.01 grid and takes
// it as written; expected and auto scoring ask for one digit 0–9 with token logprobs and read
// each item's score as Σ p·v over the digits (score-distribution.ts); auto falls back to the
// written digit when the server returned no usable logprobs. Returns the answer in the shape
// the cache stores, or why it failed; never throws. Sharing, caching and fault kinds live in
// judge.ts.

import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { MAX_TOP_LOGPROBS, type ServedBy } from '../models/logprobs.ts';
import type { ModelClient, ModelResult } from '../models/types.ts';
import type { RubricItem } from '../rubric/schema.ts';
import { numberSpans, spanAt } from './json-offsets.ts';
import { type JudgeModeName, jointMessages, perItemMessages } from './prompt.ts';
import {
  DIGIT_SCORES,
  DigitVerdictSchema,
  ItemVerdictSchema,
  jointAnswerSchema,
} from './schema.ts';
import { type ScoreMass, scoreDistribution } from './score-distribution.ts';
import type { ScoringMode, ScoringUsed } from './strategy.ts';

/** The judge samples greedily: a reward should not depend on the sampling seed. */
export const JUDGE_TEMPERATURE = 0;

export interface CachedAnswer {
  scores: { key: string; score: number; rationale: string; distribution?: ScoreMass[] }[];
  /** How the scores were read; absent in answers cached before scoring modes (greedy). */
  scoring?: ScoringUsed;
  servedBy?: ServedBy;
}

/** How the answer is asked and read: scoring mode, temperature, seed. */
export interface AskOptions {
  scoring: ScoringMode;
  temperature: number;
  seed?: number;
}

type Asked =
  | { ok: true; answer: CachedAnswer; usage: Usage }
  | { ok: false; message: string; usage: Usage };

/** One call's items as written, with the distributions its logprobs give (or why not). */
interface Read {
  written: { key: string; score: number; rationale: string }[];
  dists: (ScoreMass[] | string)[];
}

/** SGLang reports logprobs after the request's temperature; the others before it. */
function reportedTemperature(client: ModelClient, t: number): number {
  return client.spec.provider === 'sglang' ? t : 0;
}

function readCall(
  client: ModelClient,
  res: Extract<ModelResult<unknown>, { ok: true }>,
  paths: { key: string; path: string[]; score: number; rationale: string }[],
  opts: AskOptions,
): Read {
  const spans = opts.scoring === 'greedy' ? null : numberSpans(res.raw);
  const written = paths.map(({ key, score, rationale }) => ({ key, score, rationale }));
  const dists = paths.map(({ path }) => {
    if (opts.scoring === 'greedy') return 'greedy scoring';
    const span = spans && spanAt(spans, path);
    if (!span) return 'the score was not found in the answer text';
    const d = scoreDistribution(
      res.logprobs,
      res.raw,
      span,
      DIGIT_SCORES,
      reportedTemperature(client, opts.temperature),
    );
    return d.ok ? d.distribution : d.reason;
  });
  return { written, dists };
}

/** The cached answer from what was read: expected when every item has a distribution. */
function finish(
  read: Read,
  opts: AskOptions,
  servedBy: ServedBy | undefined,
): CachedAnswer | string {
  const digit = opts.scoring !== 'greedy';
  const allRead = digit && read.dists.every((d) => typeof d !== 'string');
  const why = read.dists.find((d): d is string => typeof d === 'string');
  if (opts.scoring === 'expected' && !allRead)
    return `--judge-scoring expected: no usable logprobs (${why}); use auto to fall back to greedy`;
  const scores = read.written.map((w, i) => {
    const d = read.dists[i];
    if (allRead && d !== undefined && typeof d !== 'string') {
      let e = 0;
      for (const m of d) e += m.p * m.score;
      return { ...w, score: e, distribution: d };
    }
    return { ...w, score: digit ? w.score / 9 : w.score };
  });
  return {
    scores,
    scoring: allRead ? 'expected' : 'greedy',
    ...(servedBy && Object.keys(servedBy).length ? { servedBy } : {}),
  };
}

export async function askJudge(
  client: ModelClient,
  mode: JudgeModeName,
  req: JudgeRequest,
  signal: AbortSignal,
  maxTokens: number | undefined,
  opts: AskOptions = { scoring: 'greedy', temperature: JUDGE_TEMPERATURE },
): Promise<Asked> {
  const scale = opts.scoring === 'greedy' ? 'grid' : 'digit';
  const call = {
    temperature: opts.temperature,
    maxTokens,
    signal,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(scale === 'digit' ? { topLogprobs: MAX_TOP_LOGPROBS } : {}),
  };
  if (mode === 'joint') {
    const res = await client.generateObject(
      jointMessages(req.prompt, req.items, req.png, scale),
      jointAnswerSchema(req.items, scale),
      'rubric_scores',
      call,
    );
    if (!res.ok)
      return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
    const paths = req.items.map((it) => {
      const v = res.value[it.key]!;
      return { key: it.key, path: [it.key, 'score'], score: v.score, rationale: v.reasoning };
    });
    const out = finish(readCall(client, res, paths, opts), opts, res.servedBy);
    if (typeof out === 'string') return { ok: false, message: out, usage: res.usage };
    return { ok: true, answer: out, usage: res.usage };
  }
  const schema = scale === 'digit' ? DigitVerdictSchema : ItemVerdictSchema;
  const results = await Promise.all(
    req.items.map((it) =>
      client.generateObject(
        perItemMessages(req.prompt, it, req.png, scale),
        schema,
        'item_score',
        call,
      ),
    ),
  );
  let usage = emptyUsage();
  for (const r of results) usage = addUsage(usage, r.usage);
  const read: Read = { written: [], dists: [] };
  for (const [i, r] of results.entries()) {
    const key = req.items[i]!.key;
    if (!r.ok)
      return { ok: false, message: `item ${key}: ${r.error.code}: ${r.error.message}`, usage };
    const one = readCall(
      client,
      r,
      [{ key, path: ['score'], score: r.value.score, rationale: r.value.reasoning }],
      opts,
    );
    read.written.push(...one.written);
    read.dists.push(...one.dists);
  }
  const first = results[0];
  const out = finish(read, opts, first?.ok ? first.servedBy : undefined);
  if (typeof out === 'string') return { ok: false, message: out, usage };
  return { ok: true, answer: out, usage };
}

/**
 * What the judge is asked about: the prompt the picture was drawn for, the rubric's items and
 * the rendered PNG.
 */
export interface JudgeRequest {
  /** The original prompt the picture was drawn for. */
  prompt: string;
  items: RubricItem[];
  png: Buffer;
  /**
   * The content hash of the task's data files (core/assets.ts assetsHash), when it has any:
   * part of the cache key, so two tasks with different data never share an answer.
   */
  assets?: string | null;
  signal?: AbortSignal;
}
