// One batch scoring run's resources, opened together and closed together: the answer cache
// (SQLite), a render pool drawing with the asked renderer, and the rollout scorer over them
// (`rubrica score` scores a rollouts file through this). If the scorer cannot be built as
// configured, the cache, the pool and the hybrid rewarder are closed before the error goes on.
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { createRolloutScorer, type RolloutScorerOptions } from './score.ts';

export interface ScoringRunOptions
  extends Omit<RolloutScorerOptions, 'renderer' | 'cache' | 'inspect'> {
  /** The answer cache file, or false to neither read nor write one. */
  cache: string | false;
  /** Who draws the pictures (default: the render pool's default renderer). */
  renderer?: RendererName;
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
  const { cache: cachePath, renderer: rendererName, ...scorerOptions } = opts;
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
  return {
    score: async (item) => (await scorer.scoreBatch([item]))[0]!,
    scoreBatch: (items) => scorer.scoreBatch(items),
    async close() {
      await scorer.close();
      await cache?.close();
      await renderer.close();
    },
  };
}
