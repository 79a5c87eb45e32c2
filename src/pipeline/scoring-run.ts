// One batch scoring run's resources, opened together and closed together: the answer cache
// (SQLite), a render pool drawing with the asked renderer, and the rollout scorer over them
// (`rubrica score` scores a rollouts file through this). If the scorer cannot be built as
// configured, the cache, the pool and the hybrid rewarder are closed before the error goes on.
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { withRolloutTimeout } from './rollout-timeout.ts';
import { createRolloutScorer, type RolloutScorerOptions, rewardList } from './score.ts';

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
  const timed = rolloutTimeoutMs
    ? withRolloutTimeout(scorer, rolloutTimeoutMs, {
        defaultRewards: rewardList(opts.reward, ['ruler']),
      })
    : scorer;
  return {
    score: async (item) => (await timed.scoreBatch([item]))[0]!,
    scoreBatch: (items) => timed.scoreBatch(items),
    async close() {
      await timed.close(); // after the late work: its answers reach the cache first
      await cache?.close();
      await renderer.close();
    },
  };
}
