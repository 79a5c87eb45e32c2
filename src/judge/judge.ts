// The VLM judge: scores one rendered picture against a rubric, in joint mode (one call,
// every item) or per-item mode (one call per item). Answers are cached by everything
// that shapes them (the judge asked — provider, model, server — prompt version, mode,
// rubric, picture), and concurrent requests for the same key share one call, so identical
// pictures in a batch are judged once; a caller that goes away does not fail the others
// (shared-calls.ts). Failures are values, never throws: a failed model call is a
// `judge_error` fault, a failing cache a `cache_error` fault.

import type { CriterionScore } from '../core/criteria.ts';
import { emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import { sha256 } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import type { AnswerCache } from '../store/cache.ts';
import { isCacheError } from '../store/cache-error.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import type { JudgeRequest } from './ask.ts';
import { askJudge, type CachedAnswer, JUDGE_TEMPERATURE } from './ask.ts';
import { type JudgeModeName, judgeTemplate } from './prompt.ts';
import { createSharedCalls } from './shared-calls.ts';

export { JUDGE_TEMPERATURE } from './ask.ts';

/** Which part of the grader failed: the model call, or the answer cache. */
export type JudgeFault = 'judge_error' | 'cache_error';

/**
 * The judge's answer: one score per rubric item, or the fault that prevented it (the model
 * call or the cache). A fault is a value, never a zero: the caller records a grader error.
 */
export type JudgeVerdict =
  | { ok: true; criteria: CriterionScore[]; usage: Usage; cached: boolean }
  | { ok: false; fault: JudgeFault; message: string; usage: Usage; cached: false };

/**
 * A VLM judge bound to one model and mode; `judge()` never rejects for a bad answer or a
 * failed call (see JudgeVerdict).
 */
export interface Judge {
  readonly mode: JudgeModeName;
  readonly modelId: string;
  /** Version (content hash) of the judge prompt file this mode uses. */
  readonly promptVersion: string;
  judge(req: JudgeRequest): Promise<JudgeVerdict>;
}

/** The model client, the mode (`joint`: one call for all items; `per-item`), and the cache. */
export interface JudgeOptions {
  client: ModelClient;
  mode?: JudgeModeName;
  /** null/undefined: no cache. */
  cache?: AnswerCache | null;
  maxTokens?: number;
}

/** Hash of what the judge reads about a rubric: the prompt and every item's text. */
export function rubricHash(prompt: string, items: readonly RubricItem[]): string {
  return sha256(JSON.stringify({ prompt, items }));
}

/** Everything that shapes a judge answer: the judge asked, prompt version, mode, rubric, picture. */
function judgeKey(client: ModelClient, mode: JudgeModeName, req: JudgeRequest): string {
  return cacheKey([
    'judge',
    ...modelKeyParts(client),
    judgeTemplate(mode).version,
    mode,
    JUDGE_TEMPERATURE,
    rubricHash(req.prompt, req.items),
    sha256(req.png),
    // Only when the task has data files: keys of tasks without any stay as they were.
    ...(req.assets ? [`assets:${req.assets}`] : []),
  ]);
}

function toCriteria(items: RubricItem[], answer: CachedAnswer): CriterionScore[] {
  return items.map((it) => {
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
}

/** A failed verdict: which part of the grader failed, and why. */
function fault(f: JudgeFault, message: string, usage = emptyUsage()): JudgeVerdict {
  return { ok: false, fault: f, message, usage, cached: false };
}

/**
 * A VLM judge that scores a picture against a rubric's items. Answers are cached by model,
 * prompt version, items and picture, and identical calls in flight share one request. A
 * failed call or an unstorable answer comes back as a fault verdict, not a throw.
 * @example
 * ```ts
 * const judge = createJudge({ client, mode: 'joint', cache: openCache('.rubrica/cache.sqlite') });
 * ```
 */
export function createJudge(opts: JudgeOptions): Judge {
  const mode = opts.mode ?? 'joint';
  const { client } = opts;
  const cache = opts.cache ?? null;
  const shared = createSharedCalls<JudgeVerdict>();

  const run = async (
    req: JudgeRequest,
    key: string,
    signal: AbortSignal,
  ): Promise<JudgeVerdict> => {
    const res = await askJudge(client, mode, req, signal, opts.maxTokens);
    if (!res.ok) return fault('judge_error', res.message, res.usage);
    try {
      await cache?.set('judge', key, res.answer);
    } catch (err) {
      if (!isCacheError(err)) throw err;
      // The answer is known but could not be stored: the cache is broken and the operator
      // must hear of it, so this is a cache fault rather than a silent success.
      return fault('cache_error', err.message, res.usage);
    }
    return {
      ok: true,
      criteria: toCriteria(req.items, res.answer),
      usage: res.usage,
      cached: false,
    };
  };

  const lookup = async (key: string): Promise<CachedAnswer | undefined | JudgeVerdict> => {
    try {
      return await cache?.get<CachedAnswer>('judge', key);
    } catch (err) {
      if (!isCacheError(err)) throw err;
      return fault('cache_error', err.message);
    }
  };

  return {
    mode,
    modelId: client.spec.id,
    promptVersion: judgeTemplate(mode).version,
    async judge(req) {
      const key = judgeKey(client, mode, req);
      const hit = await lookup(key);
      if (hit && 'ok' in hit) return hit;
      if (hit)
        return {
          ok: true,
          criteria: toCriteria(req.items, hit),
          usage: emptyUsage(),
          cached: true,
        };
      // Someone else may be judging this exact picture against this exact rubric: share
      // their answer; the calls and tokens are counted once, on the owner's record.
      const out = await shared.run(key, (signal) => run(req, key, signal), req.signal);
      if ('aborted' in out) return fault('judge_error', 'aborted: the caller went away');
      const v = out.value;
      if (out.owner) return v;
      return v.ok ? { ...v, usage: emptyUsage(), cached: true } : { ...v, usage: emptyUsage() };
    },
  };
}
