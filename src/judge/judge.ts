// The VLM judge: scores one rendered picture against a rubric, in joint mode (one call,
// every item) or per-item mode (one call per item). Answers are cached by everything
// that shapes them, and concurrent requests for the same key share one call, so
// identical pictures in a batch are judged once. Failures are values, never throws.
import type { CriterionScore } from '../core/criteria.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import { sha256 } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey } from '../store/keys.ts';
import { type JudgeModeName, jointMessages, judgeTemplate, perItemMessages } from './prompt.ts';
import { ItemVerdictSchema, jointAnswerSchema } from './schema.ts';

/** The judge samples greedily: a reward should not depend on the sampling seed. */
export const JUDGE_TEMPERATURE = 0;

export interface JudgeRequest {
  /** The original prompt the picture was drawn for. */
  prompt: string;
  items: RubricItem[];
  png: Buffer;
  signal?: AbortSignal;
}

export type JudgeVerdict =
  | { ok: true; criteria: CriterionScore[]; usage: Usage; cached: boolean }
  | { ok: false; message: string; usage: Usage; cached: false };

export interface Judge {
  readonly mode: JudgeModeName;
  readonly modelId: string;
  /** Version (content hash) of the judge prompt file this mode uses. */
  readonly promptVersion: string;
  judge(req: JudgeRequest): Promise<JudgeVerdict>;
}

export interface JudgeOptions {
  client: ModelClient;
  mode?: JudgeModeName;
  /** null/undefined: no cache. */
  cache?: AnswerCache | null;
  maxTokens?: number;
}

interface CachedAnswer {
  scores: { key: string; score: number; rationale: string }[];
}

/** Hash of what the judge reads about a rubric: the prompt and every item's text. */
export function rubricHash(prompt: string, items: readonly RubricItem[]): string {
  return sha256(JSON.stringify({ prompt, items }));
}

export function createJudge(opts: JudgeOptions): Judge {
  const mode = opts.mode ?? 'joint';
  const { client } = opts;
  const cache = opts.cache ?? null;
  const inFlight = new Map<string, Promise<JudgeVerdict>>();

  const keyOf = (req: JudgeRequest) =>
    cacheKey([
      'judge',
      client.spec.id,
      judgeTemplate(mode).version,
      mode,
      JUDGE_TEMPERATURE,
      rubricHash(req.prompt, req.items),
      sha256(req.png),
    ]);

  const toCriteria = (items: RubricItem[], answer: CachedAnswer): CriterionScore[] =>
    items.map((it) => {
      const s = answer.scores.find((x) => x.key === it.key)!;
      return {
        key: it.key,
        axis: it.axis,
        weight: it.weight,
        score: s.score,
        rationale: s.rationale,
        source: 'judge',
      };
    });

  const callModel = async (
    req: JudgeRequest,
  ): Promise<
    { ok: true; answer: CachedAnswer; usage: Usage } | { ok: false; message: string; usage: Usage }
  > => {
    const call = { temperature: JUDGE_TEMPERATURE, maxTokens: opts.maxTokens, signal: req.signal };
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
  };

  const run = async (req: JudgeRequest, key: string): Promise<JudgeVerdict> => {
    const res = await callModel(req);
    if (!res.ok) return { ok: false, message: res.message, usage: res.usage, cached: false };
    cache?.set('judge', key, res.answer);
    return {
      ok: true,
      criteria: toCriteria(req.items, res.answer),
      usage: res.usage,
      cached: false,
    };
  };

  return {
    mode,
    modelId: client.spec.id,
    promptVersion: judgeTemplate(mode).version,
    async judge(req) {
      const key = keyOf(req);
      const hit = cache?.get<CachedAnswer>('judge', key);
      if (hit)
        return {
          ok: true,
          criteria: toCriteria(req.items, hit),
          usage: emptyUsage(),
          cached: true,
        };
      const pending = inFlight.get(key);
      if (pending) {
        // Someone else is judging this exact picture against this exact rubric: share
        // their answer; the calls and tokens are counted once, on their record.
        const v = await pending;
        return v.ok ? { ...v, usage: emptyUsage(), cached: true } : { ...v, usage: emptyUsage() };
      }
      const p = run(req, key).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
      return p;
    },
  };
}
