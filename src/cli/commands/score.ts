// `rubrica score`: score rollouts with rubrics and a VLM judge, appending scores.jsonl in
// input order with crash-safe resume. Thin: parse flags, make the judge clients, open the
// scoring run (src/pipeline/scoring-run.ts), feed it the file, summarise.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssetsInputSchema } from '../../core/assets.ts';
import { DOMAIN_IDS } from '../../core/domain-ids.ts';
import type { RewardKind, ScoreRecord } from '../../core/record.ts';
import { isGraderFaultRecord, isUnjudged } from '../../core/status.ts';
import type { JudgingStrategy } from '../../judge/strategy.ts';
import { createModelClient } from '../../models/client.ts';
import { ScorerConfigError } from '../../pipeline/score.ts';
import { openScoringRun, type ScoringRunOptions } from '../../pipeline/scoring-run.ts';
import { formatScoreSummary, summariseScores } from '../../reward/summary.ts';
import { DROP_AXES, isDropAxis } from '../../reward/weighted.ts';
import { parseRubricsJsonl } from '../../rubric/load.ts';
import { ExactIdSchema } from '../../store/jsonl.ts';
import { addDataRootFlag, dataRootFlag } from '../assets-flag.ts';
import { asUsage, cacheFlag, judgeCallFlags, parseCount, parseMode } from '../flags.ts';
import { addGateFlag, type GateFlags, gateFromFlags } from '../gate-flag.ts';
import { createGroupBatcher, groupSizes } from '../group-batches.ts';
import { addHtmlFlag, htmlFlagOptions } from '../html-flag.ts';
import { addHybridFlags, type HybridFlags, hybridFromFlags } from '../hybrid-flags.ts';
import { inputFile, optionalInputFile } from '../input-file.ts';
import { finishJsonlCommand, runJsonlCommand } from '../jsonl-command.ts';
import { addJudgeBudgetFlags, batchJudgeBudget } from '../judge-budget.ts';
import {
  addCalibrationFlag,
  addJudgingFlags,
  addPanelFlags,
  JUDGE_PANEL_HELP,
  type JudgingFlags,
  judgeSpecs,
  judgingFromFlags,
} from '../judging-flags.ts';
import { preflight, preflightPanel } from '../preflight.ts';
import { prismaFromFlags } from '../prisma-flags.ts';
import type { RegisterCommand } from '../register.ts';
import { addRelativeFlags } from '../relative-flags.ts';
import { addRendererFlag, parseRenderer } from '../renderer-flag.ts';
import { checkRolloutFileApplies } from '../reward-domains.ts';
import { parseRewardFlag, REWARD_FLAG_HELP, rewardNeeds } from '../reward-flag.ts';
import {
  addRolloutTimeoutFlag,
  type RolloutTimeoutFlags,
  rolloutTimeoutFromFlags,
} from '../rollout-timeout-flag.ts';
import { checkRubricsFit } from '../rubric-fit.ts';
import { addShardFlags, parseShardFlags, type ShardFlags } from '../shard-flags.ts';
import { IdSchema } from '../synth-flags.ts';
import { UsageError } from '../usage-error.ts';

const RolloutLine = z.object({
  id: ExactIdSchema,
  prompt_id: IdSchema.nullish(),
  prompt: z.string().nullish(),
  completion: z.string(),
  domain: z.enum(DOMAIN_IDS).nullish(),
  assets: AssetsInputSchema.nullish(),
});

/** The grader fault a score line records (new `status` or, in older files, its reason). */
export function scoreFault(r: {
  status?: unknown;
  reason?: unknown;
  rewards?: unknown;
}): string | null {
  if (isGraderFaultRecord(r)) return typeof r.reason === 'string' ? r.reason : 'grader_error';
  // With several rewards (--reward ruler,hybrid), a fault in any of them redoes the rollout.
  const others = r.rewards && typeof r.rewards === 'object' ? Object.values(r.rewards) : [];
  for (const o of others as { status?: unknown; reason?: unknown }[]) {
    const f = o && typeof o === 'object' ? scoreFault(o) : null;
    if (f) return f;
  }
  return null;
}

/** Exit 1 with this line when no rollout of the run was measured. */
function nothingScored(records: readonly Pick<ScoreRecord, 'status' | 'reason'>[]): string | null {
  if (!records.length) return null;
  if (!records.every((r) => isUnjudged(r) || scoreFault(r) !== null)) return null;
  const noRubric = records.filter((r) => r.reason === 'no_rubric').length;
  return noRubric
    ? `nothing could be scored: ${noRubric} of ${records.length} rollouts have no rubric (check --rubrics matches the prompt ids or prompt texts)`
    : 'nothing could be scored';
}

interface ScoreFlags extends HybridFlags, ShardFlags, JudgingFlags, RolloutTimeoutFlags, GateFlags {
  renderer?: string;
  dataRoot?: string;
  htmlFullPage?: boolean;
  rubrics?: string;
  codeJudge?: string;
  prismaLambdas?: string;
  in: string;
  out: string;
  /** Every --judge given (a comma list splits): one judge, or a panel. */
  judge?: string[];
  mode?: string;
  reward: string;
  dropAxis?: string;
  blank: string;
  concurrency?: string;
  judgeBaseUrl?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
  cache: boolean | string;
  judgeConcurrency?: string;
  judgeRpm?: string;
  judgeTpm?: string;
}

/** Flag checks before any model is made: each a usage error (exit 2). */
function checkFlags(flags: ScoreFlags) {
  // Every input file first: a missing one is one line and exit 2, before any model.
  inputFile('--in', flags.in);
  optionalInputFile('--rubrics', flags.rubrics);
  const reward = parseRewardFlag(flags.reward);
  if (flags.dropAxis !== undefined && !isDropAxis(flags.dropAxis)) {
    throw new UsageError(
      `--drop-axis must be one of ${DROP_AXES.join(', ')}, got "${flags.dropAxis}"`,
    );
  }
  if (flags.blank !== 'zero' && flags.blank !== 'judge') {
    throw new UsageError(`--blank must be zero or judge, got "${flags.blank}"`);
  }
  const rubrics = flags.rubrics
    ? parseRubricsJsonl(readFileSync(flags.rubrics, 'utf8'))
    : undefined;
  for (const e of rubrics?.errors ?? []) {
    process.stderr.write(`rubrica: ${flags.rubrics}:${e.line}: ${e.message} (line ignored)\n`);
  }
  if (rubrics && flags.rubrics) checkRubricsFit(flags.rubrics, rubrics.rubrics, reward);
  const mode = parseMode(flags.mode);
  const concurrency = parseCount('--concurrency', flags.concurrency, 8);
  if (rewardNeeds(reward).judge && !flags.judge)
    throw new UsageError(`--judge is required for --reward ${flags.reward}`);
  const judging = judgingFromFlags(flags);
  if (judging.judging !== 'absolute' && (flags.shard !== undefined || flags.shards !== undefined))
    // Shards split rollouts by id, so a GRPO group would be split between shards.
    throw new UsageError(`--judging ${judging.judging} judges whole groups: it cannot be sharded`);
  return {
    reward,
    rubrics: rubrics?.rubrics,
    mode,
    concurrency,
    dropAxis: flags.dropAxis,
    judging,
    gate: gateFromFlags(flags),
  };
}

/** The judge and (for --reward prisma) the code judge, each pre-flight probed, and prisma's rubrics. */
async function judgeClients(
  flags: ScoreFlags,
  judging: JudgingStrategy,
  reward: RewardKind[],
  concurrency: number,
  budget: ReturnType<typeof batchJudgeBudget>,
) {
  // Every judge of a panel is made with these (the scorer makes those after the first).
  const judgeOptions = {
    baseUrl: flags.judgeBaseUrl,
    concurrency: budget.concurrency,
    ...(budget.gate ? { gate: budget.gate } : {}),
    ...judgeCallFlags(flags),
  };
  const make = (spec: string) =>
    asUsage(() => createModelClient(spec, { ...judgeOptions, role: 'judge' }));
  const judgeSpec = flags.judge?.[0];
  const client = judgeSpec ? make(judgeSpec) : undefined;
  await preflight(client, 'judge'); // a dead judge is found in seconds, not after retries
  await preflightPanel(judging.panel, judging.quorum, make);
  const prisma = prismaFromFlags(flags, reward, {
    baseUrl: flags.judgeBaseUrl,
    concurrency: concurrency * 6,
    ...judgeCallFlags(flags),
  });
  await preflight(prisma.codeJudge, 'judge');
  return { client, prisma, judgeOptions };
}

async function score(flags: ScoreFlags, setExit: (code: number) => void): Promise<void> {
  const checked = checkFlags(flags);
  const cache = await cacheFlag(flags);
  const budget = batchJudgeBudget(
    { ...flags, judge: flags.judge?.[0] },
    cache,
    checked.concurrency * 6,
  );
  try {
    await scoreWith(flags, setExit, checked, cache, budget);
  } finally {
    await budget.gate?.close();
  }
}

async function scoreWith(
  flags: ScoreFlags,
  setExit: (code: number) => void,
  { reward, rubrics, mode, concurrency, dropAxis, judging, gate }: ReturnType<typeof checkFlags>,
  cache: string | false,
  budget: ReturnType<typeof batchJudgeBudget>,
): Promise<void> {
  const shard = parseShardFlags(flags);
  const { client, prisma, judgeOptions } = await judgeClients(
    flags,
    judging,
    reward,
    concurrency,
    budget,
  );
  // Loads CLIP / connects scorers only when the hybrid reward was asked for.
  const hybrid = rewardNeeds(reward).hybrid ? await hybridFromFlags(flags) : undefined;
  inputFile('--in', flags.in); // still there after the model checks
  checkRolloutFileApplies(flags.in, reward, hybrid);
  const dataRoot = dataRootFlag(flags.dataRoot);

  const run = await openScoringRun({
    rubrics,
    prismaRubrics: prisma.rubrics,
    codeJudge: prisma.codeJudge,
    prismaLambdas: prisma.lambdas,
    judge: client,
    renderer: parseRenderer(flags.renderer),
    ...htmlFlagOptions(flags),
    cache,
    reward,
    mode,
    judging,
    gate,
    judgeOptions,
    dropAxis: dropAxis as ScoringRunOptions['dropAxis'],
    concurrency,
    blankPolicy: flags.blank as ScoringRunOptions['blankPolicy'],
    ...rolloutTimeoutFromFlags(flags),
    hybrid,
    ...(dataRoot ? { dataRoot } : {}),
  }).catch((err) => {
    if (err instanceof ScorerConfigError) throw new UsageError(err.message);
    throw err;
  });
  // Pairwise: each rollout waits for its group, and every rollout may be in flight at once
  // (the scorer's own limit bounds the work).
  const batcher =
    judging.judging === 'absolute'
      ? null
      : createGroupBatcher(
          await groupSizes(flags.in, flags.out, RolloutLine, (line) => scoreFault(line) !== null),
          (items) => run.scoreBatch(items),
        );
  try {
    const r = await runJsonlCommand({
      inPath: flags.in,
      outPath: flags.out,
      schema: RolloutLine,
      example: '{"id":"r1","prompt_id":"p1","completion":"```svg\\n<svg …/>\\n```"}',
      label: 'score',
      noun: 'rollouts',
      shard: shard && { ...shard, command: 'score' },
      concurrency: batcher ? Math.max(concurrency, batcher.total) : concurrency,
      process: (it: z.infer<typeof RolloutLine>) => (batcher ? batcher.score(it) : run.score(it)),
      faultOf: scoreFault,
      redo: (line) => scoreFault(line) !== null,
      // The summary reads status, reason, reward, cached and usage; the criteria and
      // checks of 400k rollouts are not kept in memory.
      slim: ({ criteria: _c, checks: _k, message: _m, ...rest }) => rest as ScoreRecord,
      usageOf: (rec) => rec.usage,
    });
    process.stdout.write(`${formatScoreSummary(summariseScores(r.records))}\n`);
    finishJsonlCommand(
      r,
      { noun: 'rollouts', inPath: flags.in, nothing: nothingScored(r.records) },
      setExit,
    );
  } finally {
    await run.close();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('score')
    .description('score rollouts: render, judge against rubrics, weigh into rewards')
    .option(
      '--rubrics <file>',
      'rubrics.jsonl from `rubric synth` (not needed for --reward universal)',
    )
    .requiredOption(
      '--in <file>',
      'rollouts.jsonl: lines {"id","prompt_id" or "prompt","completion"}',
    )
    .requiredOption(
      '--out <file>',
      'scores.jsonl (appended in input order; ids already done are skipped, grader faults redone)',
    )
    .option(
      '--judge <spec>',
      `judge VLM, provider:model (not needed for --reward hybrid); ${JUDGE_PANEL_HELP}`,
      judgeSpecs,
    )
    .option(
      '--code-judge <spec>',
      'LLM that reads the code for --reward prisma, provider:model (default: the judge)',
    )
    .option(
      '--prisma-lambdas <spec>',
      'λ overrides for --reward prisma: family=λc:λv[:λh],… or a JSON object (docs/prismaforge.md)',
    )
    .option('--mode <mode>', 'judge mode: joint | per-item (default joint)')
    .option('--reward <kinds>', REWARD_FLAG_HELP, 'ruler')
    .option('--drop-axis <axis>', `leave one axis out: ${DROP_AXES.join(' | ')}`)
    .option('--blank <policy>', 'blank pictures: zero (no judge call) | judge', 'zero')
    .option('--concurrency <n>', 'rollouts in flight at once (default 8)')
    .option(
      '--judge-base-url <url>',
      'judge base URL (else RUBRICA_JUDGE_BASE_URL, else provider default)',
    )
    .option('--judge-timeout <ms>', 'per judge attempt, ms (default 120000)')
    .option('--judge-retries <n>', 'judge retries after the first attempt (default 4)')
    .option(
      '--cache <file|url>',
      'answer cache: SQLite file (default .rubrica/cache.sqlite) or redis://host:port/db',
    )
    .option('--no-cache', 'do not read or write the answer cache');
  addJudgeBudgetFlags(cmd);
  addJudgingFlags(cmd);
  addPanelFlags(cmd);
  addRolloutTimeoutFlag(cmd);
  addGateFlag(cmd);
  addCalibrationFlag(cmd);
  addDataRootFlag(cmd);
  addRelativeFlags(cmd);
  addShardFlags(addRendererFlag(addHtmlFlag(addHybridFlags(cmd)))).action((flags: ScoreFlags) =>
    score(flags, setExit),
  );
};
