// `rubrica eval`: evaluate a policy (sampled now with --policy) or existing outputs
// (--rollouts) on a prompt set with the universal rubric and, with --rubrics, the instance
// rubrics; writes DIR/results.jsonl, images/, summary.json and report.html. Thin: parse
// flags, read the prompts, sample with --policy (as `generate` does), then evaluate the
// rollouts file (src/eval/run-files.ts) and print the headline numbers.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DOMAIN_IDS, type DomainId } from '../../core/domain-ids.ts';
import { promptIdResolver } from '../../core/group-key.ts';
import type { RewardKind } from '../../core/record.ts';
import { isGraderFaultRecord } from '../../core/status.ts';
import { addUsage, emptyUsage } from '../../core/usage.ts';
import type { GeneratedLine } from '../../eval/generate.ts';
import { formatJudgeIntervals } from '../../eval/judge-intervals.ts';
import type { EvalRunResult } from '../../eval/run.ts';
import {
  type EvalFileOptions,
  type EvalFileResult,
  evaluateRolloutsFile,
} from '../../eval/run-files.ts';
import { type PromptLine, type RolloutLine, readPromptsFile } from '../../eval/run-inputs.ts';
import { judgeNotice } from '../../eval/run-judge.ts';
import { isRelativeJudging } from '../../eval/run-relative.ts';
import { createModelClient } from '../../models/client.ts';
import { parseModelSpec } from '../../models/spec.ts';
import type { ModelSpec } from '../../models/types.ts';
import { parseAlertThresholds } from '../../monitors/alerts.ts';
import { resolveLambdas } from '../../reward/hybrid.ts';
import { parseRubricsJsonl } from '../../rubric/load.ts';
import { parsePrismaRubrics } from '../../rubric/prisma-load.ts';
import { badLineMessage } from '../../store/jsonl-values.ts';
import { createRunProgress } from '../../store/progress.ts';
import { inShard, type ShardSpec } from '../../store/shard.ts';
import { domainFlag } from '../domain-flag.ts';
import { asUsage, checkCacheReachable, judgeCallFlags, parseCount, parseMode } from '../flags.ts';
import { addGateFlag, type GateFlags, gateFromFlags } from '../gate-flag.ts';
import { addHtmlFlag, htmlFlagOptions } from '../html-flag.ts';
import { addHybridFlags, type HybridFlags, hybridFromFlags, hybridPlan } from '../hybrid-flags.ts';
import { inputFile } from '../input-file.ts';
import { finishJsonlCommand, InterruptedError, withInterrupt } from '../jsonl-command.ts';
import { addJudgeBudgetFlags, type BatchBudgetFlags, batchJudgeBudget } from '../judge-budget.ts';
import {
  addCalibrationFlag,
  addJudgingFlags,
  addPanelFlags,
  JUDGE_PANEL_HELP,
  type JudgingFlags,
  judgeSpecs,
  judgingFromFlags,
} from '../judging-flags.ts';
import { checkPolicyDomains } from '../policy-domains.ts';
import type { RegisterCommand } from '../register.ts';
import { addRelativeFlags } from '../relative-flags.ts';
import { addRendererFlag, parseRenderer } from '../renderer-flag.ts';
import { checkRolloutFileApplies } from '../reward-domains.ts';
import { parseRewardFlag, rewardNeeds } from '../reward-flag.ts';
import {
  addJudgeCallFlags,
  addRolloutTimeoutFlag,
  type RolloutTimeoutFlags,
  rolloutTimeoutFromFlags,
} from '../rollout-timeout-flag.ts';
import { checkRubricsFit } from '../rubric-fit.ts';
import { sampleWithProgress } from '../sample-with-progress.ts';
import { addShardFlags, parseShardFlags, type ShardFlags } from '../shard-flags.ts';
import { endShard, startShard } from '../shard-start.ts';
import { UsageError } from '../usage-error.ts';
import {
  formatGenerateSummary,
  parseTemperature,
  readSystemFlag,
  type SamplingFlags,
} from './generate.ts';

interface EvalFlags
  extends SamplingFlags,
    HybridFlags,
    ShardFlags,
    Omit<BatchBudgetFlags, 'judge'>,
    JudgingFlags,
    RolloutTimeoutFlags,
    GateFlags {
  renderer?: string;
  htmlFullPage?: boolean;
  reward?: string;
  prompts: string;
  rollouts?: string;
  /** Every --judge spec in order (two or more: a panel). */
  judge: string[];
  rubrics?: string;
  out: string;
  run?: string;
  n?: string;
  mode?: string;
  judgeBaseUrl?: string;
  concurrency?: string;
  cache: boolean | string;
  alerts?: string;
  domain?: string;
}

const fail = (setExit: (code: number) => void, message: string) => {
  process.stderr.write(`rubrica: ${message}\n`);
  setExit(1);
};

function printResult(r: EvalRunResult, dir: string): void {
  const s = r.summary;
  const lines = [
    `eval ${s.run}: ${s.records} rollouts over ${s.prompts} prompts (${r.scored} scored now, ${r.resumed} kept from an earlier run)`,
  ];
  for (const kind of s.kinds) {
    const k = s.rewards[kind];
    if (!k) continue;
    const fmt = (v: number | null) => (v === null ? '–' : v.toFixed(3));
    // "not judged" / "n too small" instead of an interval that would claim a measurement.
    const iv = (i: typeof k.score_all) =>
      i.estimate === null
        ? `– (${i.note ?? 'nothing to average'})`
        : i.low === null || i.high === null
          ? `${fmt(i.estimate)} (${i.note ?? 'no CI'})`
          : `${fmt(i.estimate)} [${fmt(i.low)}, ${fmt(i.high)}]`;
    if (kind === s.kinds[0]) {
      lines.push(
        `  render success   ${k.render_success_rate === null ? '–' : `${(k.render_success_rate * 100).toFixed(1)}%`} (${k.rendered} of ${k.n})`,
      );
      const failed = Object.entries(k.unscoreable)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ');
      lines.push(`  failed           ${failed || 'none'}`);
      const gated = Object.entries(k.gated ?? {})
        .map(([c, n]) => `${c} ${n}`)
        .join(', ');
      if (gated) lines.push(`  gated            ${gated} (reward 0, no judge call)`);
    }
    lines.push(
      `  ${kind.padEnd(16)} rendered ${iv(k.score_rendered)} · all samples ${iv(k.score_all)}`,
    );
    if (k.judge_intervals)
      lines.push(`  ${''.padEnd(16)} ${formatJudgeIntervals(k.judge_intervals)}`);
    for (const a of k.health?.alerts ?? [])
      process.stderr.write(`rubrica: warning: ${kind}: ${a.message}\n`);
    const notJudged = Object.entries(k.grader_errors)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    if (notJudged) lines.push(`  ${''.padEnd(16)} not judged: ${notJudged}`);
  }
  const u = s.usage.judge;
  lines.push(
    `  judge            ${s.judge.spec}: ${u.calls} calls, ${u.inputTokens}+${u.outputTokens} tokens, ${u.costUsd === null ? 'cost unknown' : `$${u.costUsd.toFixed(4)}`}`,
  );
  lines.push(
    `wrote ${join(dir, 'results.jsonl')}, summary.json, report.html and images/ (${r.records.filter((x) => x.image).length} PNGs)`,
  );
  lines.push(`open ${resolve(r.paths.report)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Whether --rubrics also scores "ruler": yes, except for a prisma-only file with --reward prisma. */
function rulerRubricsWanted(file: string, reward: string | undefined): boolean {
  const ruler = parseRubricsJsonl(readFileSync(file, 'utf8')).rubrics;
  const prismaAsked = (reward ?? '').split(',').some((k) => k.trim() === 'prisma');
  if (
    prismaAsked &&
    !ruler.some((r) => r.kept) &&
    parsePrismaRubrics(readFileSync(file, 'utf8')).rubrics.length
  )
    return false;
  checkRubricsFit(file, ruler, 'ruler');
  return true;
}

/** Flag checks before any model call or file write: each a usage error (exit 2). */
function checkFlags(flags: EvalFlags) {
  if ((flags.policy === undefined) === (flags.rollouts === undefined)) {
    throw new UsageError(
      'give exactly one of --policy SPEC (sample now) or --rollouts FILE (existing outputs)',
    );
  }
  // Every input file checked before anything is read or called (exit 2 if not there).
  inputFile('--prompts', flags.prompts);
  if (flags.rollouts !== undefined) inputFile('--rollouts', flags.rollouts);
  if (flags.rubrics !== undefined) inputFile('--rubrics', flags.rubrics);
  if (flags.system !== undefined && flags.system !== 'none') inputFile('--system', flags.system);
  // The "ruler" reward needs kept ruler rubrics: refuse a file that has none, up front —
  // unless it is a PrismaForge rubrics file read for --reward prisma (then no "ruler").
  const ruler =
    flags.rubrics !== undefined ? rulerRubricsWanted(flags.rubrics, flags.reward) : false;
  const concurrency = parseCount('--concurrency', flags.concurrency, 8);
  const mode = parseMode(flags.mode);
  let alerts: ReturnType<typeof parseAlertThresholds>;
  try {
    alerts = parseAlertThresholds(flags.alerts);
  } catch (err) {
    throw new UsageError(`--alerts: ${(err as Error).message}`);
  }
  // eval always scores universal (and ruler with --rubrics); --reward adds more (e.g. hybrid,
  // rubric-s), all computed from the one render of each rollout.
  const extra = flags.reward === undefined ? [] : parseRewardFlag(flags.reward);
  if (rewardNeeds(extra).rubrics && !flags.rubrics)
    throw new UsageError(`--reward ${flags.reward} needs --rubrics`);
  const renderer = parseRenderer(flags.renderer);
  const cache: string | false | undefined =
    flags.cache === false ? false : typeof flags.cache === 'string' ? flags.cache : undefined;
  const shard = parseShardFlags(flags);
  // Every record carries the run name, and the default (the folder's name) differs per
  // shard: the merged run could not be what one run writes.
  if (shard && flags.run === undefined)
    throw new UsageError(
      '--shard needs --run NAME (the run name every shard writes in its records)',
    );
  const d = domainFlag(flags.domain);
  const domain: DomainId | undefined = d === 'auto' ? undefined : d;
  const judging = judgingFromFlags(flags);
  const gate = gateFromFlags(flags);
  return { ruler, concurrency, mode, alerts, extra, renderer, cache, shard, domain, judging, gate };
}

type Settings = Record<string, string | number | boolean | null>;

/** The prompts (bad lines reported, exit 1), and the --out folder made; undefined: stop. */
async function readPromptsAndMakeOut(
  flags: EvalFlags,
  setExit: (code: number) => void,
): Promise<PromptLine[] | undefined> {
  const prompts = await readPromptsFile(flags.prompts);
  if (!prompts.ok) {
    fail(setExit, prompts.error.message);
    return undefined;
  }
  for (const i of prompts.issues) fail(setExit, badLineMessage(i.file, i.line, i.message));
  if (existsSync(flags.out) && !statSync(flags.out).isDirectory())
    throw new UsageError(
      `--out ${flags.out} is a file; eval writes a folder (results.jsonl, summary.json, report.html, images/): give a folder path`,
    );
  await mkdir(flags.out, { recursive: true });
  return prompts.value;
}

/**
 * `--policy`: samples the rollouts into OUT/rollouts.jsonl (resumable, with progress) and
 * prints generate's summary; exit 1 when some calls failed, 130 when interrupted.
 */
async function samplePolicy(
  flags: EvalFlags & { policy: string },
  prompts: readonly PromptLine[],
  concurrency: number,
  settings: Settings,
  setExit: (code: number) => void,
  refuse: ((line: GeneratedLine) => string | null) | undefined,
) {
  const n = parseCount('--n', flags.n, 1);
  const temperature = parseTemperature(flags.temperature);
  const maxTokens = parseCount('--max-tokens', flags.maxTokens, 4096);
  const client = asUsage(() =>
    createModelClient(flags.policy, {
      role: 'policy',
      baseUrl: flags.policyBaseUrl,
      concurrency,
    }),
  );
  const sampled = join(flags.out, 'rollouts.jsonl');
  const system = await readSystemFlag(flags.system);
  const g = await sampleWithProgress({
    prompts,
    client,
    n,
    out: sampled,
    system,
    temperature,
    maxTokens,
    concurrency,
    refuse,
  });
  process.stdout.write(`${formatGenerateSummary(g, sampled)}\n`);
  if (g.refused) throw new UsageError(g.refused.message);
  if (g.interrupted)
    throw new InterruptedError(
      `interrupted while sampling: ${sampled} keeps the ${g.written} samples written; run the same command again to resume`,
    );
  if (g.failed > 0) setExit(1);
  Object.assign(settings, { policy: client.spec.id, n, temperature, 'max tokens': maxTokens });
  return { file: sampled, policy: { model: client.spec.id, usage: g.usage } };
}

/**
 * Records the shard beside OUT/results.jsonl before any work. Its input is the rollouts file,
 * or with --policy the prompts file (a prompt's samples then stay in one shard); the options
 * are what `rubrica merge` needs to write the merged run's summary and report.
 */
function startEvalShard(flags: EvalFlags, shard: ShardSpec, relative: boolean) {
  const policy = flags.policy !== undefined;
  return startShard(
    {
      ...shard,
      command: 'eval',
      // Relative judging needs whole groups: its rollouts are placed by their prompt too.
      by: policy || relative ? 'prompt_id' : 'id',
      options: {
        run: flags.run ?? null,
        prompts: flags.prompts,
        prompts_path: resolve(flags.prompts),
        alerts: flags.alerts ?? null,
        policy,
      },
    },
    policy ? flags.prompts : flags.rollouts!,
    join(flags.out, 'results.jsonl'),
  );
}

/** The rollouts a --rollouts shard takes: by id, or under relative judging by prompt. */
function shardFilter(
  shard: ShardSpec,
  relative: boolean,
  prompts: readonly PromptLine[],
): (x: RolloutLine) => boolean {
  if (!relative) return (x) => inShard(x.id, shard);
  const promptOf = promptIdResolver(prompts);
  return (x) => inShard(promptOf(x), shard);
}

/** The progress display of the run: a bar sized once the run knows what is left to score. */
function evalProgress() {
  let progress = createRunProgress('eval', 0);
  const callbacks: Pick<EvalFileOptions, 'onStart' | 'onRecord'> = {
    onStart: (todo) => {
      progress = createRunProgress('eval', todo);
    },
    onRecord: (rec) =>
      progress.tick(
        Object.values(rec.scores).reduce((u, s) => addUsage(u, s.usage), emptyUsage()),
        Object.values(rec.scores).find(isGraderFaultRecord)?.reason ?? null,
      ),
  };
  return { callbacks, stop: () => progress.stop() };
}

/** The headline numbers, the judge notice when it was not reached, and the exit code. */
function printRun(
  r: Extract<EvalFileResult, { ok: true }>,
  at: { out: string; judge: ModelSpec; rolloutsFile: string },
  setExit: (code: number) => void,
): void {
  printResult(r.result, at.out);
  if (r.result.probe && !r.result.probe.reachable) {
    process.stdout.write(`\n${judgeNotice(at.judge, r.result.probe)}\n`);
  }
  // Exit 1 while any rollout is not judged (a re-run scores just those).
  const written = r.result.records.length;
  finishJsonlCommand(
    { faults: r.faults, inputErrors: 0, written },
    {
      noun: 'rollouts',
      inPath: at.rolloutsFile,
      nothing: written === 0 ? 'nothing to evaluate' : null,
    },
    setExit,
  );
}

async function evaluate(flags: EvalFlags, setExit: (code: number) => void): Promise<void> {
  const checked = checkFlags(flags);
  await checkCacheReachable(checked.cache ?? false);
  const budget = batchJudgeBudget(
    { ...flags, judge: flags.judge[0] },
    checked.cache,
    checked.concurrency * 6,
  );
  try {
    await evaluateWith(flags, setExit, checked, budget);
  } finally {
    await budget.gate?.close();
  }
}

async function evaluateWith(
  flags: EvalFlags,
  setExit: (code: number) => void,
  {
    ruler,
    concurrency,
    mode,
    alerts,
    extra,
    renderer,
    cache,
    shard,
    domain,
    judging,
    gate,
  }: ReturnType<typeof checkFlags>,
  budget: ReturnType<typeof batchJudgeBudget>,
): Promise<void> {
  // Every judge of a panel is made with these (the scorer makes those after the first).
  const judgeOptions = {
    baseUrl: flags.judgeBaseUrl,
    concurrency: budget.concurrency,
    ...(budget.gate ? { gate: budget.gate } : {}),
    ...judgeCallFlags(flags),
  };
  const judge = asUsage(() =>
    createModelClient(flags.judge[0]!, { ...judgeOptions, role: 'judge' }),
  );
  asUsage(() => judging.panel.map((spec) => parseModelSpec(spec)));
  const prompts = await readPromptsAndMakeOut(flags, setExit);
  if (!prompts) return;
  const settings: Settings = {
    prompts: flags.prompts,
    rubrics: flags.rubrics ?? null,
    'judge mode': mode,
    'judge scoring': judging.scoring,
    concurrency,
    cache: cache === false ? 'off' : (cache ?? 'default'),
  };
  if (domain) settings.domain = domain;
  // A panel is named in summary.json and the report: which judges, and how many must answer.
  if (judging.panel.length > 1) {
    settings['judge panel'] = judging.panel.join(', ');
    settings['panel quorum'] = judging.quorum ?? judging.panel.length;
  }
  // Recorded only when not the default, so an absolute run's summary is as before.
  if (judging.judging !== 'absolute') {
    settings.judging = judging.judging;
    if (judging.judging === 'pairwise') settings.pairs = judging.pairs;
    if (judging.judging === 'group') settings['group orders'] = judging.groupOrders ?? 'mirror';
  }
  // A reward that does not apply to a declared domain is refused before the policy is asked.
  const kinds: RewardKind[] = ['universal', ...extra];
  const think = extra.includes('hybrid') ? resolveLambdas(hybridPlan(flags).lambdas).think : 0;
  const refuse =
    flags.policy !== undefined
      ? checkPolicyDomains(
          prompts,
          kinds,
          { hybridThink: think },
          { promptsFile: flags.prompts, domain },
        )
      : undefined;
  const relative = isRelativeJudging(judging.judging);
  const car = shard ? await startEvalShard(flags, shard, relative) : null;
  const sampled =
    flags.policy !== undefined
      ? await samplePolicy(
          { ...flags, policy: flags.policy },
          shard ? prompts.filter((p) => inShard(p.id, shard)) : prompts,
          concurrency,
          settings,
          setExit,
          refuse,
        )
      : undefined;
  const rolloutsFile = sampled?.file ?? flags.rollouts!;
  settings.rollouts = rolloutsFile;
  const hybrid = extra.includes('hybrid') ? await hybridFromFlags(flags) : undefined;
  checkRolloutFileApplies(rolloutsFile, kinds, hybrid, domain);
  if (extra.length) settings.reward = ['universal', ...extra].join(' + ');
  const progress = evalProgress();
  try {
    const r = await withInterrupt(
      (signal, drain) =>
        evaluateRolloutsFile({
          signal,
          drain,
          rolloutsFile,
          promptsFile: flags.prompts,
          onInputIssue: (message) => fail(setExit, message),
          onNotice: (message) => process.stderr.write(`rubrica: ${message}\n`),
          prompts,
          outDir: flags.out,
          run: flags.run ?? basename(resolve(flags.out)),
          judge,
          judgeBaseUrl: judge.baseUrl,
          judgeOptions,
          rubrics: flags.rubrics,
          ruler,
          rewards: extra,
          hybrid,
          renderer,
          ...htmlFlagOptions(flags),
          ...(domain ? { domain } : {}),
          cache,
          mode,
          judging,
          ...rolloutTimeoutFromFlags(flags),
          gate,
          concurrency,
          settings,
          alerts,
          policy: sampled?.policy,
          // With --policy the shard sampled only its prompts; with --rollouts it takes its ids,
          // or under relative judging its prompts' rollouts (a group is never split).
          only: shard && !sampled ? shardFilter(shard, relative, prompts) : undefined,
          ...progress.callbacks,
        }),
      { drain: true },
    );
    progress.stop();
    if (!r.ok) return fail(setExit, r.error.message);
    if (car) endShard(join(flags.out, 'results.jsonl'), car, true);
    printRun(r, { out: flags.out, judge: judge.spec, rolloutsFile }, setExit);
  } finally {
    progress.stop();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('eval')
    .description(
      'evaluate a policy or existing rollouts: universal rubric (+ instance rubrics), summary, report.html',
    )
    .requiredOption('--prompts <file>', 'prompts.jsonl: lines {"id","prompt"}')
    .option('--policy <spec>', 'sample the rollouts now from this policy, provider:model')
    .option(
      '--rollouts <file>',
      'evaluate existing rollouts: lines {"id","prompt_id" or "prompt","completion"}',
    )
    .requiredOption(
      '--judge <spec>',
      `judge VLM, provider:model (e.g. ollama:qwen3-vl:8b); ${JUDGE_PANEL_HELP}`,
      judgeSpecs,
    )
    .option(
      '--rubrics <file>',
      'rubrics.jsonl from `rubric synth`: also score with the instance rubrics ("ruler")',
    )
    .requiredOption(
      '--out <dir>',
      'run directory (results.jsonl, images/, summary.json, report.html)',
    )
    .option(
      '--run <name>',
      'run name shown in reports and compare tables (default: the directory name)',
    )
    .option('--mode <mode>', 'judge mode: joint | per-item (default joint)')
    .option(
      '--judge-base-url <url>',
      'judge base URL (else RUBRICA_JUDGE_BASE_URL, else provider default)',
    )
    .option('--concurrency <n>', 'rollouts in flight at once (default 8)')
    .option(
      '--cache <file|url>',
      'answer cache: SQLite file (default .rubrica/cache.sqlite) or redis://host:port/db',
    )
    .option('--no-cache', 'do not read or write the answer cache')
    .option('--n <n>', 'with --policy: samples per prompt (default 1)')
    .option('--system <file>', 'with --policy: system prompt file ("none" for no system message)')
    .option('--temperature <t>', 'with --policy: sampling temperature (default 1.0)')
    .option('--max-tokens <n>', 'with --policy: completion token limit (default 4096)')
    .option(
      '--policy-base-url <url>',
      'with --policy: base URL (else RUBRICA_POLICY_BASE_URL, else provider default)',
    )
    .option(
      '--reward <kinds>',
      'also score with these rewards, comma-separated (e.g. hybrid, rubric-s)',
    )
    .option(
      '--domain <id>',
      `domain of rollouts that name none (nor their prompt): auto (detected, default) or ${DOMAIN_IDS.join(', ')}`,
    )
    .option(
      '--alerts <list>',
      'reward-health alert thresholds, name=value comma list (docs/probe.md), e.g. clutter_share=0.05',
    );
  addJudgeBudgetFlags(cmd);
  addJudgingFlags(cmd);
  addPanelFlags(cmd);
  addRelativeFlags(cmd);
  addRolloutTimeoutFlag(addJudgeCallFlags(cmd));
  addGateFlag(cmd);
  addCalibrationFlag(cmd);
  addShardFlags(addRendererFlag(addHtmlFlag(addHybridFlags(cmd)))).action((flags: EvalFlags) =>
    evaluate(flags, setExit),
  );
};
