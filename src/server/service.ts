// The whole reward service from plain options, as `rubrica serve` runs it: a render pool, the
// rollout scorer (inspection, judge, cache, rewards), every render worker warmed up, then the
// HTTP server with the judge's readiness and the reward-health monitor. Whatever was started
// is closed again when a later step fails (a port in use must not leave render workers
// behind). `closeOnSignal` is the matching shutdown: drain on SIGTERM/SIGINT, then close.

import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { RewardKind } from '../core/record.ts';
import type { HtmlPictureOptions } from '../domains/html/picture.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import type { JudgingStrategy } from '../judge/strategy.ts';
import type { CircuitHealth } from '../models/circuit-breaker.ts';
import type { HedgeStats } from '../models/hedge.ts';
import type { RetryBudgetStats } from '../models/retry-budget.ts';
import type { ModelClient } from '../models/types.ts';
import { createRolloutScorer, type RolloutScorerOptions } from '../pipeline/score.ts';
import type {
  InspectingScorer,
  JudgeMode,
  RolloutInput,
  RolloutScorer,
} from '../pipeline/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import type { HybridRewarder } from '../reward/hybrid.ts';
import { parseRubricsJsonl } from '../rubric/load.ts';
import { readOrsTasks } from './ors/index.ts';
import { renderOutput } from './ors/tools.ts';
import { judgeReadiness } from './readiness.ts';
import { type RunningServer, type StartOptions, startServer } from './start.ts';

/** A tiny SVG answer rendered once per worker before "ready" (tokenizer and workers loaded). */
const WARM_UP =
  '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#c33"/></svg>\n```';

export interface RewardServiceOptions
  extends Omit<StartOptions, 'scorer' | 'readiness' | 'admission' | 'metrics'> {
  /** rubrics.jsonl (kept rubrics are used); needed by the rewards that read a rubric. */
  rubrics?: string;
  /** The judge client (its health drives /readyz); none when only `hybrid` is served. */
  judge?: ModelClient & {
    health(): CircuitHealth;
    retryStats?(): RetryBudgetStats | null;
    hedgeStats?(): HedgeStats;
  };
  /**
   * Client options of the judges after the first of a panel (`judging.panel`): the same
   * server settings, gate and budget as `judge`'s.
   */
  judgeOptions?: RolloutScorerOptions['judgeOptions'];
  /** Judge calls in flight at once (sizes the rollout pipeline when `pipeline` is not set). */
  judgeConcurrency: number;
  reward: readonly RewardKind[];
  mode: JudgeMode;
  /** The judging strategy (src/judge/strategy.ts): scoring, interval level, pairwise judging. */
  judging?: Partial<JudgingStrategy>;
  /** The gated checks (`--gate`; default judge_text, `none`: off); a request may send its own. */
  gate?: string | readonly string[];
  hybrid?: HybridRewarder;
  /** Render worker processes. */
  renderWorkers: number;
  /** Who draws the pictures (default: the pool's default renderer). */
  renderer?: RendererName;
  html?: HtmlPictureOptions;
  /** Where items' `{ path }` assets are read from (`--data-root`); else inline assets only. */
  dataRoot?: string;
  /** SQLite answer cache path, or false. */
  cache: string | false;
  /** Rollouts inspected, rendered and judged at once. Default max(32, 2×judgeConcurrency + 4×workers). */
  pipeline?: number;
  /** Serve the OpenReward Standard environment (`--ors`): its tasks are `rubrics`' prompts. */
  orsEnabled?: boolean;
  /** ORS sessions idle longer than this are dropped, ms (default 900 s). */
  orsSessionTtlMs?: number;
  /** Serve the OpenEnv environment (`--openenv`): `/ws` and its HTTP routes. */
  openenvEnabled?: boolean;
}

/** One line in the log for the rubrics file: how many rubrics are kept, dropped, unreadable. */
function logRubrics(file: string, log: Logger | undefined): void {
  if (!log) return;
  const { rubrics, errors } = parseRubricsJsonl(readFileSync(file, 'utf8'));
  const kept = rubrics.filter((r) => r.kept).length;
  log.info(
    { file, kept, dropped: rubrics.length - kept, unreadable: errors.length },
    'rubrics loaded',
  );
}

/**
 * Starts the reward service and resolves once it listens, warmed up. Throws what
 * createRolloutScorer or startServer throws (e.g. ScorerConfigError, ServerConfigError), after
 * closing the render pool and the hybrid rewarder it was handed.
 */
export async function startRewardService(opts: RewardServiceOptions): Promise<RunningServer> {
  if (opts.rubrics) logRubrics(opts.rubrics, opts.logger);
  const workers = opts.renderWorkers;
  const renderer = createRenderPool({
    workers,
    ...(opts.renderer ? { defaults: { renderer: opts.renderer } } : {}),
  });
  let inner: InspectingScorer;
  try {
    inner = await createRolloutScorer({
      rubrics: opts.rubrics,
      judge: opts.judge,
      ...(opts.judgeOptions ? { judgeOptions: opts.judgeOptions } : {}),
      renderer,
      ...(opts.html ? { html: opts.html } : {}),
      ...(opts.dataRoot ? { dataRoot: opts.dataRoot } : {}),
      inspect: inspectCompletion,
      cache: opts.cache,
      reward: opts.reward,
      mode: opts.mode,
      ...(opts.judging ? { judging: opts.judging } : {}),
      ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
      hybrid: opts.hybrid,
      // Enough rollouts in the pipeline to keep every judge slot and render worker busy.
      concurrency: opts.pipeline ?? Math.max(32, 2 * opts.judgeConcurrency + 4 * workers),
      // Render at most two rollouts per worker at once: the first rendered reach the judge
      // while the rest render (bench:scale: time to the first judge call).
      inspectConcurrency: 2 * workers,
    });
  } catch (err) {
    await renderer.close();
    await opts.hybrid?.close?.();
    throw err;
  }
  // Load the tokenizer and start every render worker before saying "ready", so the first
  // training batch does not pay for them (seconds on a cold start).
  await Promise.all(
    Array.from({ length: workers }, () => inspectCompletion(WARM_UP, { renderer })),
  );
  const scorer: RolloutScorer = {
    scoreBatch: (items, o) => inner.scoreBatch(items, o),
    judgingFor: (o) => inner.judgingFor(o),
    async close() {
      await inner.close();
      await renderer.close();
    },
  };
  const {
    rubrics: _r,
    judge,
    judgeOptions: _o,
    judgeConcurrency: _c,
    reward: _k,
    mode: _m,
    judging: _j,
    gate: _g,
    hybrid: _h,
    renderWorkers: _w,
    renderer: _n,
    html: _t,
    dataRoot: _d,
    cache: _a,
    pipeline: _p,
    orsEnabled,
    orsSessionTtlMs,
    openenvEnabled,
    ...server
  } = opts;
  // The environment protocols' tasks are the rubrics' prompts; their `render` tool shows the
  // picture and its checks, never a judge call.
  const protocol =
    orsEnabled || openenvEnabled
      ? {
          tasks: readOrsTasks(opts.rubrics),
          preview: async (item: RolloutInput) =>
            renderOutput(
              await inspectCompletion(item.completion, {
                renderer,
                ...(item.prompt ? { prompt: item.prompt } : {}),
                ...(item.domain ? { domain: item.domain } : {}),
              }),
            ),
        }
      : undefined;
  const ors =
    orsEnabled && protocol
      ? { ...protocol, ...(orsSessionTtlMs !== undefined ? { sessionTtlMs: orsSessionTtlMs } : {}) }
      : undefined;
  const openenv = openenvEnabled ? protocol : undefined;
  return startServer({
    ...server,
    ...(ors ? { ors } : {}),
    ...(openenv ? { openenv } : {}),
    defaultRewards: opts.reward,
    ...(judge?.retryStats ? { retryStats: () => judge.retryStats?.() ?? null } : {}),
    ...(judge?.hedgeStats ? { hedgeStats: () => judge.hedgeStats?.() ?? null } : {}),
    scorer,
    readiness: judge ? judgeReadiness(judge) : undefined,
  }).catch(async (err) => {
    await scorer.close(); // a port in use must not leave render workers behind
    throw err;
  });
}

/** Where the stop signals come from: the process, or an emitter standing in for it. */
export type SignalSource = Pick<NodeJS.Process, 'on' | 'off'>;

/**
 * Resolves once SIGTERM or SIGINT has closed the server (in-flight requests drained, scorer
 * closed): true when the shutdown went well, false when it failed (the error is logged).
 */
export function closeOnSignal(
  server: RunningServer,
  log?: Logger,
  signals: SignalSource = process,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      signals.off('SIGTERM', stop);
      signals.off('SIGINT', stop);
      server.close(signal).then(
        () => resolve(true),
        (err) => {
          log?.error({ err }, 'shutdown failed');
          resolve(false);
        },
      );
    };
    signals.on('SIGTERM', stop);
    signals.on('SIGINT', stop);
  });
}
