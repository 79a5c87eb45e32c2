// runEval: one evaluation run. Every rollout is inspected once (artifact → render →
// checks), scored with the universal rubric (the paper's evaluation metric) and, when
// rubrics are given, with its instance rubric ("ruler"); results are appended to
// DIR/results.jsonl as they finish (crash-safe, resumable), then compacted, summarised
// (summary.json) and shown (report.html). A judge that cannot be reached does not stop the
// run: rollouts are still rendered and checked and come out "not judged".

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DomainId } from '../core/domain-ids.ts';
import { groupKey, promptIdResolver } from '../core/group-key.ts';
import { isUnjudged } from '../core/status.ts';
import type { Usage } from '../core/usage.ts';
import type { InspectFn, Inspection } from '../inspect/types.ts';
import type { JudgingStrategy } from '../judge/strategy.ts';
import type { ModelClient } from '../models/types.ts';
import type { AlertThresholds } from '../monitors/alerts.ts';
import { recordsByKind } from '../pipeline/record.ts';
import { withRolloutTimeout } from '../pipeline/rollout-timeout.ts';
import {
  checkRewardsApply,
  createRolloutScorer,
  type RolloutScorerOptions,
  rolloutDomains,
} from '../pipeline/score.ts';
import type { JudgeMode, RewardKind, RolloutInput } from '../pipeline/types.ts';
import type { Renderer } from '../render/types.ts';
import { rewardsRestricted } from '../reward/applies.ts';
import { resolveLambdas } from '../reward/hybrid.ts';
import type { RubricRecord } from '../rubric/schema.ts';
import { itemsSource, openJsonlOutput, RunInterruptedError, runJsonl } from '../store/jsonl.ts';
import { saveImage } from './run-images.ts';
import type { PromptLine, RolloutLine } from './run-inputs.ts';
import { type JudgeProbe, probeJudge, unreachableJudge } from './run-judge.ts';
import { appendPart, readParts, seedParts, totalOf } from './run-parts.ts';
import {
  createEvalGroupBatcher,
  groupedOrder,
  isRelativeJudging,
  relativeScoresByKind,
  unfinishedGroupIds,
} from './run-relative.ts';
import { readResults } from './run-results.ts';
import { writeEvalSummary } from './run-summary.ts';
import type { EvalSummaryFile } from './summary-file.ts';
import type { EvalRecord } from './types.ts';

/**
 * The inputs of one evaluation run: prompts and rollouts, the output directory, the judge and
 * renderer, and which rewards beside `universal` (and `ruler`, given rubrics) to score.
 */
export interface EvalRunOptions {
  prompts: readonly PromptLine[];
  rollouts: readonly RolloutLine[];
  outDir: string;
  /** Run name (model / checkpoint); default the directory's name. */
  run: string;
  judge: ModelClient;
  /** The judge's base URL, probed before the run; omit to skip the probe. */
  judgeBaseUrl?: string;
  probeTimeoutMs?: number;
  /** Reason-SVG's hybrid reward (built by src/reward/hybrid.ts): needed for "hybrid". */
  hybrid?: RolloutScorerOptions['hybrid'];
  /** Rewards scored besides universal and (with rubrics) ruler; "hybrid" is added when `hybrid` is given. */
  rewards?: readonly RewardKind[];
  /** Kept instance rubrics (records or a rubrics.jsonl path): adds the "ruler" reward. */
  rubrics?: readonly RubricRecord[] | string;
  /** Score "ruler" with `rubrics` (default true); false for a PrismaForge-only rubrics file. */
  ruler?: boolean;
  renderer: Renderer;
  /** html picture options (e.g. full page) for the scorer's domain renderers. */
  html?: RolloutScorerOptions['html'];
  /**
   * Domain of every rollout that names none and whose prompt names none (`eval --domain`);
   * default: detected from the completion (docs/domains.md).
   */
  domain?: DomainId;
  inspect: InspectFn;
  /** Cache file, or false for none. Default: the scorer's default file. */
  cache?: string | false;
  mode?: JudgeMode;
  /** How judge answers are asked and read (src/judge/strategy.ts), by one judge or a panel. */
  judging?: Partial<JudgingStrategy>;
  /** Client options of a panel's judges after `judge` (`judging.panel`): `judge`'s own. */
  judgeOptions?: RolloutScorerOptions['judgeOptions'];
  /** The gated checks (`--gate`, issue 41; default judge_text, `none`: off). */
  gate?: string | readonly string[];
  /** Rollouts in flight at once. Default 8. */
  concurrency?: number;
  /**
   * `--rollout-timeout-ms`: a rollout not scored by then is a grader fault with reason
   * `deadline` (scored again when the run resumes); its work runs on into the cache.
   */
  rolloutTimeoutMs?: number;
  /** Extra settings recorded in summary.json and the report (flags, sources). */
  settings?: Record<string, string | number | boolean | null>;
  /** Policy usage when the rollouts were sampled for this run. */
  policy?: { model: string; usage: Usage };
  /** Reward-health alert thresholds for the summary (default src/monitors/alerts.ts). */
  alerts?: AlertThresholds;
  /** Lines for the report's notice box (e.g. input lines that were skipped). */
  notices?: string[];
  onStart?: (todo: number, total: number) => void;
  onRecord?: (record: EvalRecord) => void;
  /** Stops the run (Ctrl-C): results.jsonl keeps what was scored, one line per id, and
   * runEval throws RunInterruptedError before writing the summary and report. */
  signal?: AbortSignal;
  /** Stops taking rollouts but scores and writes those in flight first (SIGTERM), then
   * ends as `signal` does. */
  drain?: AbortSignal;
}

/** What a run wrote: its records, the summary, the judge probe, and where the files are. */
export interface EvalRunResult {
  records: EvalRecord[];
  summary: EvalSummaryFile;
  probe: JudgeProbe | null;
  /** Rollouts scored by this invocation (the rest were already done). */
  scored: number;
  resumed: number;
  paths: { results: string; summary: string; report: string; images: string };
}

/** A results.jsonl line is done when every reward kind has a verdict that is not a grader fault. */
function isDone(line: Record<string, unknown>, kinds: readonly string[]): boolean {
  const scores = line.scores as Record<string, { status?: unknown; reason?: unknown }> | undefined;
  if (!scores || typeof scores !== 'object') return false;
  return kinds.every((k) => {
    const s = scores[k];
    // A grader failure is not a verdict on the drawing: such records are scored again.
    // `no_rubric` too (isUnjudged): rubrics may have been added since.
    return s !== undefined && s !== null && !isUnjudged(s);
  });
}

/**
 * One evaluation run: inspects every rollout once, scores it with `universal` (and `ruler`
 * given rubrics, plus `rewards`), appends to OUT/results.jsonl as it goes (resumable), then
 * writes summary.json and report.html. An unreachable judge does not stop the run: rollouts
 * come out "not judged". Rejects with RunInterruptedError when `signal` aborts.
 * @example
 * ```ts
 * const judge = createModelClient('vllm:Qwen/Qwen3-VL-8B-Instruct', { role: 'judge' });
 * const { summary } = await runEval({
 *   prompts: [{ id: 'p1', prompt }],
 *   rollouts: [{ id: 'r1', prompt_id: 'p1', prompt: null, completion }],
 *   outDir: 'runs/base', run: 'base', judge, renderer: pool, inspect: inspectCompletion,
 * });
 * ```
 */
export async function runEval(opts: EvalRunOptions): Promise<EvalRunResult> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const kinds: RewardKind[] =
    opts.rubrics && opts.ruler !== false ? ['universal', 'ruler'] : ['universal'];
  for (const k of opts.rewards ?? []) if (!kinds.includes(k)) kinds.push(k);
  if (opts.hybrid && !kinds.includes('hybrid')) kinds.push('hybrid');
  const paths = {
    results: join(opts.outDir, 'results.jsonl'),
    summary: join(opts.outDir, 'summary.json'),
    report: join(opts.outDir, 'report.html'),
    images: join(opts.outDir, 'images'),
  };

  const probe = opts.judgeBaseUrl ? await probeJudge(opts.judgeBaseUrl, opts.probeTimeoutMs) : null;
  const judge =
    probe && !probe.reachable
      ? unreachableJudge(opts.judge.spec, `${opts.judge.spec.id} at ${probe.url} (${probe.detail})`)
      : opts.judge;

  const promptText = new Map(opts.prompts.map((p) => [p.id, p.prompt]));
  // The rollout's group is its prompt (src/core/group-key.ts), named by the prompts file's id.
  const promptIdOf = promptIdResolver(opts.prompts);
  // A rollout's domain: its own, else its prompt's (a prompts file may say it), else --domain.
  const promptDomain = new Map(opts.prompts.flatMap((p) => (p.domain ? [[p.id, p.domain]] : [])));
  const seen = new Set<string>();
  // One rollout per id (the first): results.jsonl holds one record per id.
  const unique = opts.rollouts.filter((r) => !seen.has(r.id) && seen.add(r.id));
  const inputs = unique.map((r) => {
    const prompt_id = promptIdOf(r);
    return {
      id: r.id,
      prompt_id,
      prompt: r.prompt ?? promptText.get(prompt_id) ?? null,
      completion: r.completion,
      ...domainOf(r.domain ?? promptDomain.get(prompt_id) ?? opts.domain),
    };
  });

  await mkdir(opts.outDir, { recursive: true });
  await seedParts(opts.outDir);
  // Relative judging (pairwise, group) re-judges a group whole while any of it is not done
  // (eval/run-relative.ts): its answered comparisons come from the cache.
  const relative = isRelativeJudging(opts.judging?.judging);
  let redoIds: ReadonlySet<string> = new Set();
  if (relative) {
    const before = await readResults(paths.results);
    redoIds = unfinishedGroupIds(inputs, (id) => {
      const line = before.get(id);
      return line !== undefined && isDone(line as unknown as Record<string, unknown>, kinds);
    });
  }
  const out = await openJsonlOutput(paths.results, {
    redo: (line) => !isDone(line, kinds) || redoIds.has(String(line.id)),
  });
  const todo = inputs.filter((r) => !out.done.has(r.id)).length;
  opts.onStart?.(todo, inputs.length);

  // A reward that does not apply to a rollout's domain refuses the run before any work.
  const think = opts.hybrid ? resolveLambdas(opts.hybrid.config.lambdas).think : undefined;
  if (rewardsRestricted(kinds, { hybridThink: think }))
    checkRewardsApply(kinds, rolloutDomains(inputs), { hybridThink: think });
  const built = await createRolloutScorer({
    rubrics: opts.rubrics,
    judge,
    ...(opts.judgeOptions ? { judgeOptions: opts.judgeOptions } : {}),
    renderer: opts.renderer,
    ...(opts.html ? { html: opts.html } : {}),
    inspect: opts.inspect,
    cache: opts.cache,
    reward: kinds,
    hybrid: opts.hybrid,
    mode: opts.mode,
    ...(opts.judging ? { judging: opts.judging } : {}),
    ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
    concurrency: opts.concurrency ?? 8,
  });
  const scorer = opts.rolloutTimeoutMs
    ? withRolloutTimeout(built, opts.rolloutTimeoutMs, { defaultRewards: kinds })
    : built;

  type Input = RolloutInput & { prompt_id: string };
  const evalRecord = async (
    input: Input,
    scores: EvalRecord['scores'],
    inspection: Inspection | null,
  ): Promise<EvalRecord> => {
    const record: EvalRecord = {
      id: input.id,
      prompt_id: input.prompt_id,
      prompt: input.prompt ?? '',
      run: opts.run,
      scores,
      completion: input.completion,
    };
    const domain = inspection?.artifact.domain;
    if (domain && domain !== 'svg') record.domain = domain;
    if (inspection?.render?.ok)
      record.image = await saveImage(opts.outDir, input.id, inspection.render.png);
    return record;
  };
  // One inspection (one render) per rollout feeds every reward.
  const scoreOne = async (input: Input): Promise<EvalRecord> => {
    const { record: scored, inspection } = await scorer.scoreRollout(input, {
      reward: kinds,
      mode: opts.mode,
    });
    return evalRecord(input, recordsByKind(scored), inspection);
  };
  // Relative judging: a group is one batch, scored once all its rollouts are known; each
  // picture is kept as the scorer hands back its inspection.
  const scoreGroup = async (group: Input[]): Promise<EvalRecord[]> => {
    const seen = new Map<string, Inspection>();
    const recs = await scorer.scoreBatch(group, {
      reward: kinds,
      mode: opts.mode,
      onInspected: (it, ins) => seen.set(it.id, ins),
    });
    return Promise.all(
      group.map((input, k) =>
        evalRecord(input, relativeScoresByKind(recs[k]!), seen.get(input.id) ?? null),
      ),
    );
  };
  const todoInputs = inputs.filter((r) => !out.done.has(r.id));
  const runOrder = relative ? groupedOrder(inputs) : inputs;
  // Every member of a group must be in flight together for the group to complete.
  const largest = relative ? Math.max(0, ...[...countBy(todoInputs).values()]) : 0;
  const scoreNext = relative
    ? createEvalGroupBatcher(todoInputs, scoreGroup, opts.drain)
    : scoreOne;

  let scored = 0;
  let interrupted = false;
  try {
    const result = await runJsonl({
      source: itemsSource(runOrder),
      out,
      concurrency: Math.max(opts.concurrency ?? 8, largest),
      process: scoreNext,
      onWritten: (record) => opts.onRecord?.(record),
      signal: opts.signal,
      ...(opts.drain ? { drain: opts.drain } : {}),
    });
    scored = result.written;
    interrupted = result.interrupted;
    // One line per rollout: a re-scored id's newer line replaces the old one in place
    // (atomically), also when the run was interrupted.
    await out.compact();
  } finally {
    out.close();
    await scorer.close();
  }
  // This invocation's time joins the run's before the summary adds the parts up.
  const lastMs = Math.round(performance.now() - t0);
  await appendPart(opts.outDir, { started_at: startedAt, elapsed_ms: lastMs, scored, interrupted });
  if (interrupted)
    throw new RunInterruptedError(
      `interrupted: ${scored} rollouts scored this run are in ${paths.results}; run the same command again to resume`,
    );

  // Summary and report in input order; lines of ids no longer in the input are kept in the
  // file but left out.
  const latest = await readResults(paths.results);
  const records = inputs
    .map((r) => latest.get(r.id))
    .filter((r): r is EvalRecord => r !== undefined);

  const total = totalOf(await readParts(opts.outDir));
  const summary = await writeEvalSummary({
    dir: opts.outDir,
    paths,
    records,
    prompts: opts.prompts,
    notices: opts.notices ?? [],
    run: opts.run,
    kinds,
    judge: {
      spec: opts.judge.spec.id,
      base_url: opts.judgeBaseUrl ?? null,
      reachable: probe ? probe.reachable : null,
      probe,
    },
    policy: opts.policy ?? null,
    settings: opts.settings ?? {},
    alerts: opts.alerts,
    elapsed: { elapsed_ms: total.elapsed_ms, elapsed_parts: total.parts, elapsed_last_ms: lastMs },
  });
  return { records, summary, probe, scored, resumed: inputs.length - todo, paths };
}

const domainOf = (d: DomainId | undefined) => (d ? { domain: d } : {});

/** Rollouts per group. */
function countBy(items: readonly RolloutInput[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const it of items) n.set(groupKey(it), (n.get(groupKey(it)) ?? 0) + 1);
  return n;
}
