// The VLM judge: scores one rendered picture against a rubric, in joint mode (one call,
// every item) or per-item mode (one call per item). Answers are cached by everything
// that shapes them (the judge asked — provider, model, server — prompt version, mode,
// rubric, picture), and concurrent requests for the same key share one call, so identical
// pictures in a batch are judged once; a caller that goes away does not fail the others
// (shared-calls.ts). Failures are values, never throws: a failed model call is a
// `judge_error` fault, a failing cache a `cache_error` fault.

import type { CriterionScore } from '../core/criteria.ts';
import type { Provenance } from '../core/provenance.ts';
import { emptyUsage, type Usage } from '../core/usage.ts';
import type { ModelClient } from '../models/types.ts';
import { sha256 } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import type { AnswerCache } from '../store/cache.ts';
import { isCacheError } from '../store/cache-error.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import type { JudgeRequest } from './ask.ts';
import { type AskOptions, askJudge, type CachedAnswer, JUDGE_TEMPERATURE } from './ask.ts';
import { type JudgeModeName, judgeTemplate } from './prompt.ts';
import { createSharedCalls } from './shared-calls.ts';
import { DEFAULT_STRATEGY, type ScoringMode, type ScoringUsed } from './strategy.ts';

export { JUDGE_TEMPERATURE } from './ask.ts';

/** Which part of the grader failed: the model call, or the answer cache. */
export type JudgeFault = 'judge_error' | 'cache_error';

/**
 * The judge's answer: one score per rubric item, or the fault that prevented it (the model
 * call or the cache). A fault is a value, never a zero: the caller records a grader error.
 */
export type JudgeVerdict =
  | {
      ok: true;
      criteria: CriterionScore[];
      usage: Usage;
      cached: boolean;
      /** How the item scores were read (auto resolves to one of these). */
      scoring: ScoringUsed;
      /** What produced the answer: judge, server revision, temperature, seed, mode, prompt. */
      provenance: Provenance;
    }
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
  /** How item scores are asked and read. */
  readonly scoring?: ScoringMode;
  judge(req: JudgeRequest): Promise<JudgeVerdict>;
}

/** The model client, the mode (`joint`: one call for all items; `per-item`), and the cache. */
export interface JudgeOptions {
  client: ModelClient;
  mode?: JudgeModeName;
  /** null/undefined: no cache. */
  cache?: AnswerCache | null;
  maxTokens?: number;
  /** How item scores are asked and read (default DEFAULT_STRATEGY.scoring; see JudgingStrategy). */
  scoring?: ScoringMode;
  /** Sampling temperature of the judge (default 0: greedy). */
  temperature?: number;
  /** Sampling seed sent to the server, when set. */
  seed?: number;
}

/** Hash of what the judge reads about a rubric: the prompt and every item's text. */
export function rubricHash(prompt: string, items: readonly RubricItem[]): string {
  return sha256(JSON.stringify({ prompt, items }));
}

/**
 * Everything that shapes a judge answer: the judge asked, prompt version, mode, temperature,
 * scoring mode (and seed), rubric, picture.
 */
function judgeKey(client: ModelClient, mode: JudgeModeName, ask: AskOptions, req: JudgeRequest) {
  const scale = ask.scoring === 'greedy' ? 'grid' : 'digit';
  return cacheKey([
    'judge',
    ...modelKeyParts(client),
    judgeTemplate(mode, scale).version,
    mode,
    ask.temperature,
    // Greedy keys stay as they were before scoring modes, so old answers are still found.
    ...(ask.scoring === 'greedy' ? [] : [`scoring:${ask.scoring}`]),
    ...(ask.seed !== undefined ? [`seed:${ask.seed}`] : []),
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
      ...(s.distribution ? { distribution: s.distribution } : {}),
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
  const ask: AskOptions = {
    scoring: opts.scoring ?? DEFAULT_STRATEGY.scoring,
    temperature: opts.temperature ?? JUDGE_TEMPERATURE,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  };
  const template = judgeTemplate(mode, ask.scoring === 'greedy' ? 'grid' : 'digit');
  const verdict = (
    items: RubricItem[],
    answer: CachedAnswer,
    usage: Usage,
    cached: boolean,
  ): JudgeVerdict => {
    const scoring = answer.scoring ?? 'greedy';
    return {
      ok: true,
      criteria: toCriteria(items, answer),
      usage,
      cached,
      scoring,
      provenance: {
        judge: client.spec.id,
        ...(answer.servedBy?.model ? { served_model: answer.servedBy.model } : {}),
        ...(answer.servedBy?.fingerprint
          ? { system_fingerprint: answer.servedBy.fingerprint }
          : {}),
        temperature: ask.temperature,
        seed: ask.seed ?? null,
        scoring,
        scoring_requested: ask.scoring,
        mode,
        prompt_hash: template.version,
      },
    };
  };
  const cache = opts.cache ?? null;
  const shared = createSharedCalls<JudgeVerdict>();

  const run = async (
    req: JudgeRequest,
    key: string,
    signal: AbortSignal,
  ): Promise<JudgeVerdict> => {
    const res = await askJudge(client, mode, req, signal, opts.maxTokens, ask);
    if (!res.ok) return fault('judge_error', res.message, res.usage);
    try {
      await cache?.set('judge', key, res.answer);
    } catch (err) {
      if (!isCacheError(err)) throw err;
      // The answer is known but could not be stored: the cache is broken and the operator
      // must hear of it, so this is a cache fault rather than a silent success.
      return fault('cache_error', err.message, res.usage);
    }
    return verdict(req.items, res.answer, res.usage, false);
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
    promptVersion: template.version,
    scoring: ask.scoring,
    async judge(req) {
      const key = judgeKey(client, mode, ask, req);
      const hit = await lookup(key);
      if (hit && 'ok' in hit) return hit;
      if (hit) return verdict(req.items, hit, emptyUsage(), true);
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
