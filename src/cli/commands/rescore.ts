// `rubrica rescore`: judge a finished `score` output or `eval` run again with another judge,
// judge mode, judging mode or scoring, write the new records, and print what changed (mean
// and per-prompt shift, rank correlation inside each group, GRPO advantages that change
// sign) as text or --json. Sharded by GRPO group (a group is never split between shards).
// Thin: parse flags, read the input (src/eval/rescore-inputs.ts), score, print.
import { existsSync, writeFileSync } from 'node:fs';
import { groupKey } from '../../core/group-key.ts';
import { keptPictureInspect, rescore } from '../../eval/rescore.ts';
import { formatRescoreDiff } from '../../eval/rescore-diff.ts';
import { readRescoreInput } from '../../eval/rescore-inputs.ts';
import { createModelClient } from '../../models/client.ts';
import { withRolloutTimeout } from '../../pipeline/rollout-timeout.ts';
import { createRolloutScorer, ScorerConfigError } from '../../pipeline/score.ts';
import { createRenderPool } from '../../render/pool.ts';
import { openAnswerCache } from '../../store/open-cache.ts';
import { inShard } from '../../store/shard.ts';
import { asUsage, cacheFlag, judgeCallFlags, parseCount, parseMode } from '../flags.ts';
import { addGateFlag, type GateFlags, gateFromFlags } from '../gate-flag.ts';
import { inputFileOrDir, optionalInputFile } from '../input-file.ts';
import {
  addJudgingFlags,
  addPanelFlags,
  JUDGE_PANEL_HELP,
  type JudgingFlags,
  judgeSpecs,
  judgingFromFlags,
} from '../judging-flags.ts';
import { preflight, preflightPanel } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
import { addRelativeFlags } from '../relative-flags.ts';
import { addRendererFlag, parseRenderer } from '../renderer-flag.ts';
import { parseRewardFlag } from '../reward-flag.ts';
import {
  addRolloutTimeoutFlag,
  type RolloutTimeoutFlags,
  rolloutTimeoutFromFlags,
} from '../rollout-timeout-flag.ts';
import { addShardFlags, parseShardFlags, type ShardFlags } from '../shard-flags.ts';
import { UsageError } from '../usage-error.ts';

interface RescoreFlags extends ShardFlags, JudgingFlags, RolloutTimeoutFlags, GateFlags {
  in: string;
  rollouts?: string;
  rubrics?: string;
  /** Every --judge spec in order (two or more: a panel). */
  judge: string[];
  judgeBaseUrl?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
  mode?: string;
  reward?: string;
  out: string;
  json?: boolean;
  concurrency?: string;
  renderer?: string;
  cache: boolean | string;
}

async function run(flags: RescoreFlags, setExit: (code: number) => void): Promise<void> {
  const strategy = judgingFromFlags(flags);
  const mode = parseMode(flags.mode);
  const concurrency = parseCount('--concurrency', flags.concurrency, 8);
  const shard = parseShardFlags(flags);
  const gate = gateFromFlags(flags);
  if (!existsSync(flags.in)) throw new UsageError(`--in ${flags.in}: no such file or folder`);
  // A FIFO, socket or device given as --in is refused before anything looks inside it.
  inputFileOrDir('--in', flags.in);
  optionalInputFile('--rollouts', flags.rollouts);
  optionalInputFile('--rubrics', flags.rubrics);
  const reward = flags.reward === undefined ? undefined : parseRewardFlag(flags.reward);
  if (reward && reward.length !== 1) throw new UsageError('--reward takes one reward kind here');
  const input = await readRescoreInput(flags.in, {
    ...(flags.rollouts ? { rollouts: flags.rollouts } : {}),
    ...(reward ? { reward: reward[0]! } : {}),
  }).catch((err: unknown) => {
    throw new UsageError((err as Error).message);
  });
  for (const p of input.problems.slice(0, 20)) process.stderr.write(`rubrica: ${p}\n`);
  const kind = parseRewardFlag(input.reward)[0]!;
  // A shard takes whole groups: pairwise judging and the group statistics need them.
  const items = shard
    ? input.items.filter((it) => inShard(groupKey(it.rollout), shard))
    : input.items;
  // Every judge of a panel is made with these (the scorer makes those after the first).
  const judgeOptions = { baseUrl: flags.judgeBaseUrl, concurrency, ...judgeCallFlags(flags) };
  const make = (spec: string) =>
    asUsage(() => createModelClient(spec, { ...judgeOptions, role: 'judge' }));
  const client = make(flags.judge[0]!);
  await preflight(client, 'judge');
  await preflightPanel(strategy.panel, strategy.quorum, make);
  const cachePath = await cacheFlag(flags);
  const cache = cachePath === false ? null : openAnswerCache(cachePath);
  const renderer = createRenderPool(
    flags.renderer ? { defaults: { renderer: parseRenderer(flags.renderer)! } } : {},
  );
  try {
    const { rolloutTimeoutMs } = rolloutTimeoutFromFlags(flags);
    const built = await createRolloutScorer({
      ...(flags.rubrics ? { rubrics: flags.rubrics } : {}),
      judge: client,
      judgeOptions,
      renderer,
      inspect: keptPictureInspect(items),
      cache: cache ?? false,
      reward: kind,
      mode,
      judging: strategy,
      gate,
      concurrency,
    }).catch((err: unknown) => {
      if (err instanceof ScorerConfigError) throw new UsageError(err.message);
      throw err;
    });
    const scorer = rolloutTimeoutMs
      ? withRolloutTimeout(built, rolloutTimeoutMs, { defaultRewards: [kind] })
      : built;
    try {
      const { records, diff } = await rescore(items, scorer);
      writeFileSync(flags.out, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const report = {
        in: flags.in,
        judge: flags.judge.join(','),
        ...(strategy.panel.length > 1
          ? { panel: strategy.panel, quorum: strategy.quorum ?? strategy.panel.length }
          : {}),
        reward: kind,
        judging: strategy.judging,
        ...(strategy.judging === 'pairwise' ? { pairs: strategy.pairs } : {}),
        ...(strategy.judging === 'group' ? { group_orders: strategy.groupOrders ?? 'mirror' } : {}),
        shard: shard ?? null,
        pictures_kept: items.filter((it) => it.image).length,
        problems: input.problems.length,
        ...diff,
      };
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${formatRescoreDiff(diff)}\n  pictures kept by the run: ${report.pictures_kept} of ${items.length}; new records in ${flags.out}\n`,
      );
      if (input.problems.length || diff.compared === 0) setExit(1);
    } finally {
      await scorer.close();
    }
  } finally {
    await cache?.close();
    await renderer.close();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('rescore')
    .description(
      'judge a finished score/eval output again with another judge or judging mode, and show what changed',
    )
    .requiredOption('--in <file|dir>', 'scores.jsonl from `score`, or an `eval` run folder')
    .option('--rollouts <file>', 'the rollouts a scores.jsonl scored (pictures are drawn again)')
    .requiredOption(
      '--judge <spec>',
      `the new judge, provider:model; ${JUDGE_PANEL_HELP}`,
      judgeSpecs,
    )
    .option('--judge-base-url <url>', 'judge base URL (else RUBRICA_JUDGE_BASE_URL)')
    .option('--judge-timeout <ms>', 'per judge attempt, ms (default 120000)')
    .option('--judge-retries <n>', 'judge retries after the first attempt (default 4)')
    .option('--rubrics <file>', 'rubrics.jsonl (for ruler and rubric-s)')
    .option('--reward <kind>', 'the reward compared (default: the one the input recorded)')
    .option('--mode <mode>', 'judge mode: joint | per-item (default joint)')
    .requiredOption('--out <file>', 'the new score records, JSONL')
    .option('--json', 'print the comparison as JSON')
    .option('--concurrency <n>', 'rollouts and judge calls in flight (default 8)')
    .option('--cache <file|url>', 'answer cache (default .rubrica/cache.sqlite)')
    .option('--no-cache', 'do not read or write the answer cache');
  addJudgingFlags(cmd);
  addPanelFlags(cmd);
  addGateFlag(cmd);
  addRolloutTimeoutFlag(cmd);
  addRelativeFlags(cmd);
  addShardFlags(addRendererFlag(cmd)).action((flags: RescoreFlags) => run(flags, setExit));
};
