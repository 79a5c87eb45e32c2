// createRolloutScorer: the scoring pipeline every face of rubrica calls (CLI `score`, the
// HTTP reward server, eval runs). Per rollout: find its rubric, inspect the completion
// (artifact → render → checks), then judge the picture and weigh the item scores into a
// reward. A rollout that cannot be scored gets reward 0, status `unscoreable` and the
// reason; nothing a policy writes can make this throw.
import pLimit from 'p-limit';
import type { CriterionScore } from '../core/criteria.ts';
import { RubricaError, type UnscoreableReason } from '../core/errors.ts';
import type { ChecksSummary, ScoreRecord } from '../core/record.ts';
import { emptyUsage, type Usage } from '../core/usage.ts';
import { createJudge, type Judge } from '../judge/judge.ts';
import { createModelClient, type ModelClientOptions } from '../models/client.ts';
import type { ModelClient } from '../models/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { Renderer } from '../render/types.ts';
import { type DropAxis, weightedReward } from '../reward/weighted.ts';
import { indexRubrics, type RubricIndex } from '../rubric/load.ts';
import type { PresetName } from '../rubric/presets.ts';
import type { RubricItem, RubricRecord } from '../rubric/schema.ts';
import type { InspectFn } from '../rubric/synth.ts';
import { universalItems } from '../rubric/universal.ts';
import { type AnswerCache, DEFAULT_CACHE_PATH, openCache } from '../store/cache.ts';
import { inspectCompletion } from './inspect.ts';
import type {
  Inspection,
  JudgeMode,
  RewardKind,
  RolloutInput,
  RolloutScorer,
  ScoreBatchOptions,
} from './types.ts';

/** What `reward: 'hybrid'` plugs into (built in src/reward/hybrid.ts + src/scorers). */
export interface HybridRewarder {
  score(ctx: {
    rollout: RolloutInput;
    prompt: string | null;
    inspection: Inspection;
    signal?: AbortSignal;
  }): Promise<{
    reward: number;
    status: 'ok' | 'unscoreable';
    reason?: UnscoreableReason;
    message?: string;
    criteria: CriterionScore[];
    usage: Usage;
    cached?: boolean;
  }>;
  close?(): Promise<void>;
}

/** Blank pictures: 0 without a judge call (default), or judged like any other. */
export type BlankPolicy = 'zero' | 'judge';

export interface RolloutScorerOptions {
  /** Kept rubrics, as records or the path of a rubrics.jsonl. Not needed for `universal`. */
  rubrics?: readonly RubricRecord[] | string;
  /**
   * A model client, or a `provider:model` spec turned into one by `createClient`.
   * Needed for every reward but `hybrid`.
   */
  judge?: ModelClient | string;
  /** Options for the judge client built from a spec (base URL, key, timeout, retries, concurrency). */
  judgeOptions?: Omit<ModelClientOptions, 'role'>;
  /** The renderer to use (the caller keeps ownership). Default: a render pool owned and closed by the scorer. */
  renderer?: Renderer;
  /** Completion → artifact → render → checks. Default: the pipeline's inspectCompletion. */
  inspect?: InspectFn;
  /** A cache file path, an open cache, or false to bypass. Default `.rubrica/cache.sqlite`. */
  cache?: string | false | AnswerCache;
  reward?: RewardKind;
  mode?: JudgeMode;
  dropAxis?: DropAxis;
  /** Rollouts in flight at once (judge calls are further limited by the client). Default 8. */
  concurrency?: number;
  blankPolicy?: BlankPolicy;
  hybrid?: HybridRewarder;
}

/** A scorer that cannot work as configured (a usage error, not bad policy output). */
export class ScorerConfigError extends RubricaError<
  'hybrid_unavailable' | 'no_rubrics' | 'no_judge'
> {}

const INSTANCE_PRESETS: Partial<Record<RewardKind, PresetName>> = {
  ruler: 'ruler',
  'rubric-s': 'rubric-s',
};

function zeroChecks(): ChecksSummary {
  return {
    renders: false,
    blank: false,
    ink_coverage: null,
    clipped: null,
    text_in_image: false,
    clutter: false,
    output_tokens: 0,
    svg_tokens: 0,
    dwt_stages: [],
    dwt_valid: false,
    values: {},
  };
}

export async function createRolloutScorer(opts: RolloutScorerOptions): Promise<RolloutScorer> {
  const defaultReward = opts.reward ?? 'ruler';
  const defaultMode = opts.mode ?? 'joint';
  const blankPolicy = opts.blankPolicy ?? 'zero';
  checkReward(defaultReward, opts);
  if (INSTANCE_PRESETS[defaultReward] && !opts.rubrics) {
    throw new ScorerConfigError('no_rubrics', `reward ${defaultReward} needs rubrics (--rubrics)`);
  }
  let client: ModelClient | null = null;
  if (typeof opts.judge === 'string') {
    // A bad spec, URL or missing key throws the models room's ModelConfigError.
    client = createModelClient(opts.judge, { ...opts.judgeOptions, role: 'judge' });
  } else if (opts.judge) {
    client = opts.judge;
  }
  const rubrics: RubricIndex = indexRubrics(opts.rubrics ?? []);
  let cache: AnswerCache | null = null;
  let ownsCache = false;
  if (opts.cache !== false) {
    if (typeof opts.cache === 'object') cache = opts.cache;
    else {
      cache = openCache(opts.cache ?? DEFAULT_CACHE_PATH);
      ownsCache = true;
    }
  }
  const renderer: Renderer = opts.renderer ?? createRenderPool();
  const inspect: InspectFn = opts.inspect ?? inspectCompletion;
  const judges = new Map<JudgeMode, Judge>();
  const judgeFor = (mode: JudgeMode) => {
    let j = judges.get(mode);
    if (!j) {
      j = createJudge({ client: client!, mode, cache });
      judges.set(mode, j);
    }
    return j;
  };
  const limit = pLimit(Math.max(1, opts.concurrency ?? 8));

  const scoreOne = async (
    rollout: RolloutInput,
    reward: RewardKind,
    mode: JudgeMode,
    signal?: AbortSignal,
  ): Promise<ScoreRecord> => {
    const base = {
      id: rollout.id,
      prompt_id: rollout.prompt_id ?? null,
      reward_kind: reward,
    };
    // Which rubric, and which prompt text the judge reads.
    let items: RubricItem[] | null = null;
    let promptText: string | null = rollout.prompt ?? null;
    const preset = INSTANCE_PRESETS[reward];
    if (preset) {
      const r = rubrics.find(preset, rollout);
      if (r) {
        items = r.items;
        promptText = r.prompt;
        base.prompt_id = base.prompt_id ?? r.id;
      }
    } else {
      // universal and hybrid read the prompt text: from the rollout, else from the rubrics
      // file's line for its prompt_id.
      promptText =
        promptText ?? (rollout.prompt_id ? (rubrics.promptOf(rollout.prompt_id) ?? null) : null);
      if (reward === 'universal' && promptText !== null) items = universalItems();
    }

    const inspection = await inspect(rollout.completion, {
      prompt: promptText ?? undefined,
      renderer,
    });
    const renderMs = inspection.render?.ms ?? null;
    const unscoreable = (
      reason: UnscoreableReason,
      message: string,
      usage = emptyUsage(),
    ): ScoreRecord => ({
      ...base,
      reward: 0,
      status: 'unscoreable',
      reason,
      message,
      criteria: [],
      checks: inspection.summary,
      cached: false,
      usage,
      render_ms: renderMs,
    });

    if (reward === 'hybrid') {
      const h = await opts.hybrid!.score({ rollout, prompt: promptText, inspection, signal });
      return {
        ...base,
        reward: h.reward,
        status: h.status,
        ...(h.reason ? { reason: h.reason } : {}),
        ...(h.message ? { message: h.message } : {}),
        criteria: h.criteria,
        checks: inspection.summary,
        cached: h.cached ?? false,
        usage: h.usage,
        render_ms: renderMs,
      };
    }
    if (!items || promptText === null) {
      const what = preset
        ? `no kept ${preset} rubric for prompt_id ${JSON.stringify(rollout.prompt_id ?? null)} or its prompt text`
        : 'no prompt text for the universal rubric (give "prompt", or a prompt_id found in --rubrics)';
      return unscoreable('no_rubric', what);
    }
    const art = inspection.artifact;
    if (!art.found || !art.svg) {
      const code = art.error?.code ?? 'no_svg';
      return unscoreable(code, art.error?.message ?? 'no SVG in the completion');
    }
    const render = inspection.render;
    if (!render?.ok) {
      if (render && !render.ok) return unscoreable(render.error.code, render.error.message);
      return unscoreable('render_error', 'nothing was rendered');
    }
    if (inspection.summary.blank && blankPolicy === 'zero') {
      return unscoreable('blank', 'the picture is blank (nothing drawn on the background)');
    }
    const judgeItems = opts.dropAxis ? items.filter((i) => i.axis !== opts.dropAxis) : items;
    const verdict = await judgeFor(mode).judge({
      prompt: promptText,
      items: judgeItems,
      png: render.png,
      signal,
    });
    if (!verdict.ok) return unscoreable(verdict.fault, verdict.message, verdict.usage);
    const value = weightedReward(verdict.criteria);
    if (value === null)
      return unscoreable('judge_error', 'judge gave no usable scores', verdict.usage);
    return {
      ...base,
      reward: value,
      status: 'ok',
      criteria: verdict.criteria,
      checks: inspection.summary,
      cached: verdict.cached,
      usage: verdict.usage,
      render_ms: renderMs,
    };
  };

  return {
    async scoreBatch(items: RolloutInput[], batch: ScoreBatchOptions = {}) {
      const reward = batch.reward ?? defaultReward;
      const mode = batch.mode ?? defaultMode;
      checkReward(reward, opts);
      return Promise.all(
        items.map((it) =>
          limit(() =>
            scoreOne(it, reward, mode, batch.signal).catch(
              (err: unknown): ScoreRecord => ({
                // Only a bug gets here (inspection and judging return values); keep the
                // one-record-per-input promise and say what broke.
                id: it.id,
                prompt_id: it.prompt_id ?? null,
                reward: 0,
                status: 'unscoreable',
                reason: 'scorer_error',
                message: err instanceof Error ? err.message : String(err),
                reward_kind: reward,
                criteria: [],
                checks: zeroChecks(),
                cached: false,
                usage: emptyUsage(),
                render_ms: null,
              }),
            ),
          ),
        ),
      );
    },
    async close() {
      await opts.hybrid?.close?.();
      if (ownsCache) cache?.close();
      if (!opts.renderer) await renderer.close();
    },
  };
}

function checkReward(reward: RewardKind, opts: RolloutScorerOptions): void {
  if (reward !== 'hybrid' && !opts.judge) {
    throw new ScorerConfigError('no_judge', `reward ${reward} needs a judge model`);
  }
  if (reward === 'hybrid' && !opts.hybrid) {
    throw new ScorerConfigError(
      'hybrid_unavailable',
      'reward "hybrid" needs a hybrid rewarder (not configured in this build)',
    );
  }
}
