// One judge call for one picture: joint mode asks every rubric item in one structured call,
// per-item mode one call per item. Returns the answer in the shape the cache stores, or
// why it failed; never throws. Sharing, caching and fault kinds live in judge.ts.

import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import type { RubricItem } from '../rubric/schema.ts';
import { type JudgeModeName, jointMessages, perItemMessages } from './prompt.ts';
import { ItemVerdictSchema, jointAnswerSchema } from './schema.ts';

/** The judge samples greedily: a reward should not depend on the sampling seed. */
export const JUDGE_TEMPERATURE = 0;

export interface CachedAnswer {
  scores: { key: string; score: number; rationale: string }[];
}

export async function askJudge(
  client: ModelClient,
  mode: JudgeModeName,
  req: JudgeRequest,
  signal: AbortSignal,
  maxTokens: number | undefined,
): Promise<
  { ok: true; answer: CachedAnswer; usage: Usage } | { ok: false; message: string; usage: Usage }
> {
  const call = { temperature: JUDGE_TEMPERATURE, maxTokens, signal };
  if (mode === 'joint') {
    const res = await client.generateObject(
      jointMessages(req.prompt, req.items, req.png),
      jointAnswerSchema(req.items),
      'rubric_scores',
      call,
    );
    if (!res.ok)
      return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
    const scores = req.items.map((it) => {
      const v = res.value[it.key]!;
      return { key: it.key, score: v.score, rationale: v.reasoning };
    });
    return { ok: true, answer: { scores }, usage: res.usage };
  }
  const results = await Promise.all(
    req.items.map((it) =>
      client.generateObject(
        perItemMessages(req.prompt, it, req.png),
        ItemVerdictSchema,
        'item_score',
        call,
      ),
    ),
  );
  let usage = emptyUsage();
  for (const r of results) usage = addUsage(usage, r.usage);
  const scores: CachedAnswer['scores'] = [];
  for (const [i, r] of results.entries()) {
    const key = req.items[i]!.key;
    if (!r.ok)
      return { ok: false, message: `item ${key}: ${r.error.code}: ${r.error.message}`, usage };
    scores.push({ key, score: r.value.score, rationale: r.value.reasoning });
  }
  return { ok: true, answer: { scores }, usage };
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
