// `rubrica probe`: test a judge + reward before training on it — repeatability, hack
// resistance, sensitivity, anchors, item order — on real rollouts, and write probe.json and the
// judge health card. Thin: parse flags, read inputs, call runProbe, print one line per probe.
// Exit 0 when every probe passed, 1 when one failed or grader faults left it incomplete.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readEnv } from '../../core/env.ts';
import { readPromptsFile, readRolloutsFile } from '../../eval/run-inputs.ts';
import { createModelClient } from '../../models/client.ts';
import type { JudgeMode } from '../../pipeline/types.ts';
import { runProbe } from '../../probe/run.ts';
import type { ProbeReport } from '../../probe/types.ts';
import { writeProbeOutputs } from '../../probe/write.ts';
import { createRenderPool } from '../../render/pool.ts';
import { parseRubricsJsonl } from '../../rubric/load.ts';
import { asUsage, judgeCallFlags, parseCount, parseMode } from '../flags.ts';
import { addGateFlag, type GateFlags, gateFromFlags } from '../gate-flag.ts';
import { addHybridFlags, type HybridFlags, hybridFromFlags } from '../hybrid-flags.ts';
import { inputFile, optionalInputFile } from '../input-file.ts';
import { addJudgingFlags, type JudgingFlags, judgingFromFlags } from '../judging-flags.ts';
import type { RegisterCommand } from '../register.ts';
import { parseRewardFlag, rewardNeeds } from '../reward-flag.ts';
import {
  addJudgeCallFlags,
  addRolloutTimeoutFlag,
  type RolloutTimeoutFlags,
  rolloutTimeoutFromFlags,
} from '../rollout-timeout-flag.ts';
import { UsageError } from '../usage-error.ts';

interface ProbeFlags extends HybridFlags, JudgingFlags, RolloutTimeoutFlags, GateFlags {
  prompts: string;
  rollouts: string;
  rubrics?: string;
  judge: string;
  judgeBaseUrl?: string;
  reward: string;
  mode?: string;
  orderModes: string;
  repeats?: string;
  seed?: string;
  maxPerPrompt?: string;
  concurrency?: string;
  out: string;
}

function parseModes(raw: string): JudgeMode[] {
  if (raw === 'none') return [];
  return [...new Set(raw.split(',').map((s) => parseMode(s.trim())))];
}

function printReport(r: ProbeReport, paths: { json: string; card: string }): void {
  const f = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(3));
  const lines = [
    `probe ${r.judge} · reward ${r.reward} · ${r.pictures.used} pictures, ${r.repeats} repeat(s): ${r.verdict.toUpperCase()}`,
  ];
  for (const p of r.probes) {
    const head =
      p.figures.mean_change !== undefined
        ? `mean change ${f(p.figures.mean_change)}`
        : p.figures.mean_spread !== undefined
          ? `spread ${f(p.figures.mean_spread)}, flips ${f(p.figures.flip_share)}`
          : p.figures.mean_abs_change !== undefined
            ? `mean |change| ${f(p.figures.mean_abs_change)}`
            : `ideal ${f(p.figures.ideal)}, off-prompt ${f(p.figures.off_prompt)}, blank ${f(p.figures.blank)}`;
    const extra = p.faults ? ` · ${p.faults} grader fault(s)` : '';
    lines.push(`  ${p.verdict.padEnd(12)} ${p.id.padEnd(36)} ${head} (n=${p.n}${extra})`);
    if (p.verdict === 'not_testable' && p.note) lines.push(`               ${p.note}`);
  }
  const gf = r.grader_faults;
  if (gf.faults)
    lines.push(
      `  grader faults: ${gf.faults} of ${gf.scorings} scorings (not judgements; left out)`,
    );
  lines.push(`wrote ${paths.json} and ${paths.card}`, `open ${resolve(paths.card)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * A plain progress line at most every RUBRICA_PROGRESS_INTERVAL_MS (default 30 s; 0 = never):
 * the total grows as the probe reaches each stage, so a bar would only mislead.
 */
function progressLine(): (done: number, total: number) => void {
  const every = Number(readEnv('RUBRICA_PROGRESS_INTERVAL_MS') ?? 30_000);
  const start = Date.now();
  let last = start;
  return (done, total) => {
    const now = Date.now();
    if (!(every > 0) || now - last < every) return;
    last = now;
    const secs = Math.round((now - start) / 1000);
    process.stderr.write(`probe: ${done} of ${total} scorings so far · ${secs}s elapsed\n`);
  };
}

/** Flag checks before any model is made or file read: each a usage error (exit 2). */
function checkFlags(flags: ProbeFlags) {
  // Every input file first: a missing one is one line and exit 2, before any model.
  inputFile('--prompts', flags.prompts);
  inputFile('--rollouts', flags.rollouts);
  optionalInputFile('--rubrics', flags.rubrics);
  const kinds = parseRewardFlag(flags.reward);
  if (kinds.length !== 1) throw new UsageError('--reward takes one reward for a probe');
  const kind = kinds[0]!;
  const needs = rewardNeeds(kinds);
  if (needs.rubrics && !flags.rubrics) throw new UsageError(`--reward ${kind} needs --rubrics`);
  const mode = parseMode(flags.mode);
  const orderModes = parseModes(flags.orderModes);
  const repeats = parseCount('--repeats', flags.repeats, 3);
  const seed = parseCount('--seed', flags.seed, 1);
  const concurrency = parseCount('--concurrency', flags.concurrency, 8);
  const maxPerPrompt =
    flags.maxPerPrompt === undefined
      ? undefined
      : parseCount('--max-per-prompt', flags.maxPerPrompt, 1);
  const gate = gateFromFlags(flags);
  return { kind, needs, mode, orderModes, repeats, seed, concurrency, maxPerPrompt, gate };
}

async function probe(flags: ProbeFlags, setExit: (code: number) => void): Promise<void> {
  const { kind, needs, mode, orderModes, repeats, seed, concurrency, maxPerPrompt, gate } =
    checkFlags(flags);
  const judge = asUsage(() =>
    createModelClient(flags.judge, {
      role: 'judge',
      baseUrl: flags.judgeBaseUrl,
      concurrency: concurrency * 6,
      ...judgeCallFlags(flags),
    }),
  );
  const prompts = await readPromptsFile(flags.prompts);
  if (!prompts.ok) throw new UsageError(prompts.error.message);
  const rollouts = await readRolloutsFile(flags.rollouts);
  if (!rollouts.ok) throw new UsageError(rollouts.error.message);
  for (const i of [...prompts.issues, ...rollouts.issues])
    process.stderr.write(`rubrica: ${i.file}:${i.line}: ${i.message}\n`);
  const rubrics = flags.rubrics
    ? parseRubricsJsonl(readFileSync(flags.rubrics, 'utf8')).rubrics
    : undefined;
  const hybrid = needs.hybrid ? await hybridFromFlags(flags) : undefined;
  const renderer = createRenderPool();
  try {
    const report = await runProbe({
      prompts: prompts.value,
      rollouts: rollouts.value.rollouts,
      ...(rubrics ? { rubrics } : {}),
      judge,
      reward: kind,
      mode,
      judging: judgingFromFlags(flags),
      gate,
      ...rolloutTimeoutFromFlags(flags),
      hybrid,
      renderer,
      repeats,
      seed,
      maxPerPrompt,
      orderModes,
      concurrency,
      onProgress: progressLine(),
    });
    const paths = await writeProbeOutputs(flags.out, report);
    printReport(report, paths);
    if (report.verdict !== 'pass') {
      process.stderr.write(
        report.verdict === 'fail'
          ? 'rubrica: the judge failed at least one probe (see the card)\n'
          : report.probes.some((p) => p.verdict === 'not_testable')
            ? 'rubrica: incomplete: the judge scores the originals so near the top that a hack could not show a rise (not testable; see the card)\n'
            : 'rubrica: incomplete: grader faults left probes without data; fix the judge and run again\n',
      );
      setExit(1);
    }
  } finally {
    await renderer.close();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('probe')
    .description(
      'test a judge + reward before training: repeatability, hack resistance, sensitivity, anchors',
    )
    .requiredOption('--prompts <file>', 'prompts.jsonl: lines {"id","prompt"}')
    .requiredOption(
      '--rollouts <file>',
      'real drawings: lines {"id","prompt_id" or "prompt","completion"}',
    )
    .requiredOption('--judge <spec>', 'the judge training will use, provider:model')
    .option(
      '--rubrics <file>',
      'rubrics.jsonl (ruler / rubric-s; their ideal SVGs are the anchors)',
    )
    .option(
      '--reward <kind>',
      'the reward training will use: ruler | universal | rubric-s | hybrid',
      'universal',
    )
    .option('--mode <mode>', 'judge mode training uses: joint | per-item (default joint)')
    .option(
      '--order-modes <modes>',
      'judge modes of the order probe, comma list or "none"',
      'joint,per-item',
    )
    .option('--repeats <n>', 'judgements of each original picture (repeatability; default 3)')
    .option('--seed <n>', 'seed of the perturbations and shuffles (default 1)')
    .option('--max-per-prompt <n>', 'use at most this many rollouts of each prompt')
    .option(
      '--judge-base-url <url>',
      'judge base URL (else RUBRICA_JUDGE_BASE_URL, else provider default)',
    )
    .option('--concurrency <n>', 'scorings in flight at once (default 8)')
    .requiredOption('--out <dir>', 'output folder: probe.json and card.html');
  addJudgingFlags(cmd);
  addGateFlag(cmd);
  addRolloutTimeoutFlag(addJudgeCallFlags(cmd));
  addHybridFlags(cmd).action((flags: ProbeFlags) => probe(flags, setExit));
};
