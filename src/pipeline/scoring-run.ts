// One batch scoring run's resources, opened together and closed together: the answer cache
// (SQLite), a render pool drawing with the asked renderer, and the rollout scorer over them
// (`rubrica score` scores a rollouts file through this). If the scorer cannot be built as
// configured, the cache, the pool and the hybrid rewarder are closed before the error goes on.
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { scoreByDeadline } from './deadline.ts';
import { createRolloutScorer, type RolloutScorerOptions } from './score.ts';

export interface ScoringRunOptions
  extends Omit<RolloutScorerOptions, 'renderer' | 'cache' | 'inspect'> {
  /** The answer cache file, or false to neither read nor write one. */
  cache: string | false;
  /** Who draws the pictures (default: the render pool's default renderer). */
  renderer?: RendererName;
  /**
   * `--rollout-timeout-ms`: a rollout not scored by then is a grader fault with reason
   * `deadline` (redone by the next run); its work runs on and close() waits for it, so its
   * judge answer is in the cache for that next run. Under pairwise judging it bounds a group.
   */
  rolloutTimeoutMs?: number;
}

export interface ScoringRun {
  /** Scores one rollout (at most `concurrency` at once): always one record, never a throw for bad policy output. */
  score(item: RolloutInput): Promise<ScoreRecord>;
  /** Scores rollouts as one batch (a GRPO group under pairwise judging): one record each, in order. */
  scoreBatch(items: RolloutInput[]): Promise<ScoreRecord[]>;
  /** Closes the scorer (and its hybrid rewarder), the cache and the render pool. */
  close(): Promise<void>;
}

/** Opens the cache, the render pool and the scorer; throws ScorerConfigError for a scorer that cannot work. */
export async function openScoringRun(opts: ScoringRunOptions): Promise<ScoringRun> {
  const { cache: cachePath, renderer: rendererName, rolloutTimeoutMs, ...scorerOptions } = opts;
  const cache = cachePath === false ? null : openAnswerCache(cachePath);
  const renderer = createRenderPool(rendererName ? { defaults: { renderer: rendererName } } : {});
  let scorer: Awaited<ReturnType<typeof createRolloutScorer>>;
  try {
    scorer = await createRolloutScorer({
      ...scorerOptions,
      renderer,
      inspect: inspectCompletion,
      cache: cache ?? false,
    });
  } catch (err) {
    await cache?.close();
    await renderer.close();
    await opts.hybrid?.close();
    throw err;
  }
  // Late work still running: close() waits for it so its answers reach the cache.
  const late = new Set<Promise<unknown>>();
  const timed = {
    scoreBatch: (items: RolloutInput[]) => {
      const p = scorer.scoreBatch(items);
      late.add(p);
      const forget = () => late.delete(p);
      p.then(forget, forget);
      return p;
    },
    judgingFor: scorer.judgingFor,
  };
  const defaultRewards = Array.isArray(opts.reward)
    ? opts.reward
    : opts.reward
      ? [opts.reward as RewardKind]
      : undefined;
  // Under relative judging a GRPO group is scored as one batch, and the timeout bounds the
  // group (a group that misses it is answered whole as deadline faults: pipeline/deadline.ts).
  const byDeadline = (items: RolloutInput[]) =>
    scoreByDeadline(timed, items, {}, rolloutTimeoutMs!, {
      ...(defaultRewards ? { defaultRewards } : {}),
    });
  return {
    score: async (item) =>
      rolloutTimeoutMs ? (await byDeadline([item]))[0]! : (await scorer.scoreBatch([item]))[0]!,
    scoreBatch: (items) => (rolloutTimeoutMs ? byDeadline(items) : scorer.scoreBatch(items)),
    async close() {
      await Promise.allSettled([...late]);
      await scorer.close();
      await cache?.close();
      await renderer.close();
    },
  };
}
