// `rubrica curate`: PrismaForge's data gating over a candidates file. Each candidate is one
// unit (src/curation/curate.ts) whose decision is appended to <out>/decisions.jsonl with the
// resumable JSONL runner (lock, torn-line repair, progress, skip done ids, redo grader
// faults); the kept SFT set (kept.jsonl, kept.parquet), the funnel per source (funnel.json,
// funnel.txt, funnel.html) and the cost ledger (summary.json) are then derived from the whole
// decisions file, so a resumed run reports on everything decided so far. Thin: parse the
// flags, make the model clients, open the run (src/curation/run.ts), feed it the candidates,
// write the outputs (src/curation/outputs.ts), print the funnel.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { addUsage } from '../../core/usage.ts';
import { DEFAULT_GATE } from '../../curation/curate.ts';
import { formatFunnel } from '../../curation/funnel.ts';
import { writeCurationOutputs } from '../../curation/outputs.ts';
import { decisionFault, openCurationRun } from '../../curation/run.ts';
import { createModelClient, type ModelClientOptions } from '../../models/client.ts';
import type { Role } from '../../models/types.ts';
import {
  DEFAULT_FAMILY_LAMBDAS,
  LambdaError,
  parseLambdaOverrides,
} from '../../reward/families.ts';
import { formatUsage } from '../../reward/summary.ts';
import { asUsage, cacheFlag, judgeCallFlags, parseCount, parseMode, parseUnit } from '../flags.ts';
import { inputFile, optionalInputFile } from '../input-file.ts';
import { finishJsonlCommand, runJsonlCommand } from '../jsonl-command.ts';
import { addJudgingFlags, type JudgingFlags, judgingFromFlags } from '../judging-flags.ts';
import { preflight } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
import { addShardFlags, parseShardFlags, type ShardFlags } from '../shard-flags.ts';
import { IdSchema } from '../synth-flags.ts';
import { UsageError } from '../usage-error.ts';

const CandidateLine = z.object({
  id: IdSchema,
  instruction: z.string().min(1),
  code: z.string(),
  domain: z.string().min(1).nullish(),
  source: z.string().min(1).nullish(),
  family: z.string().min(1).nullish(),
});

interface Flags extends ShardFlags, Pick<JudgingFlags, 'judgeScoring' | 'intervalLevel'> {
  in: string;
  out: string;
  judge: string;
  codeJudge?: string;
  author?: string;
  generator?: string;
  rubrics?: string;
  tau1?: string;
  tau2?: string;
  rounds?: string;
  mode?: string;
  prismaLambdas?: string;
  concurrency?: string;
  judgeBaseUrl?: string;
  authorBaseUrl?: string;
  generatorBaseUrl?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
  cache: boolean | string;
}

function parseRounds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_GATE.rounds;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--rounds must be an integer ≥ 0, got "${raw}"`);
  return n;
}

/** The gate and λ flags, checked before any model is made: each a usage error (exit 2). */
function checkFlags(flags: Flags) {
  // Every input file first: a missing one is one line and exit 2, before any model.
  inputFile('--in', flags.in);
  optionalInputFile('--rubrics', flags.rubrics);
  const gate = {
    tau1: parseUnit('--tau1', flags.tau1, DEFAULT_GATE.tau1),
    tau2: parseUnit('--tau2', flags.tau2, DEFAULT_GATE.tau2),
    rounds: parseRounds(flags.rounds),
  };
  if (gate.tau1 > gate.tau2)
    throw new UsageError(`--tau1 (${gate.tau1}) must not exceed --tau2 (${gate.tau2})`);
  if (gate.rounds > 0 && !flags.generator)
    throw new UsageError('--generator is required for re-synthesis (or give --rounds 0)');
  if (!flags.rubrics && !flags.author)
    throw new UsageError('give --rubrics (prisma rubrics) or --author to write them');
  let lambdas = DEFAULT_FAMILY_LAMBDAS;
  try {
    if (flags.prismaLambdas) lambdas = parseLambdaOverrides(flags.prismaLambdas);
  } catch (err) {
    if (err instanceof LambdaError) throw new UsageError(`--prisma-lambdas: ${err.message}`);
    throw err;
  }
  return { gate, lambdas, mode: parseMode(flags.mode), shard: parseShardFlags(flags) };
}

/** The judge, code judge, author and generator clients the flags name, each pre-flight probed. */
async function modelClients(flags: Flags, concurrency: number) {
  const judgeOpts = {
    baseUrl: flags.judgeBaseUrl,
    concurrency: concurrency * 2,
    ...judgeCallFlags(flags),
  };
  const client = (spec: string, role: Role, opts: Omit<ModelClientOptions, 'role'>) =>
    asUsage(() => createModelClient(spec, { role, ...opts }));
  const judge = client(flags.judge, 'judge', judgeOpts);
  const codeJudge = flags.codeJudge ? client(flags.codeJudge, 'judge', judgeOpts) : judge;
  const author = flags.author
    ? client(flags.author, 'author', { baseUrl: flags.authorBaseUrl, concurrency })
    : undefined;
  const generator = flags.generator
    ? client(flags.generator, 'policy', { baseUrl: flags.generatorBaseUrl, concurrency })
    : undefined;
  for (const [c, role] of [
    [judge, 'judge'],
    [codeJudge, 'judge'],
    [author, 'author'],
    [generator, 'policy'],
  ] as const)
    await preflight(c, role);
  return { judge, codeJudge, author, generator };
}

async function curate(flags: Flags, setExit: (code: number) => void): Promise<void> {
  const { gate, lambdas, mode, shard } = checkFlags(flags);
  // Only how verdicts are read applies here: curation judges each candidate alone.
  const { scoring } = judgingFromFlags({
    ...(flags.judgeScoring !== undefined ? { judgeScoring: flags.judgeScoring } : {}),
    ...(flags.intervalLevel !== undefined ? { intervalLevel: flags.intervalLevel } : {}),
  });
  const concurrency = parseCount('--concurrency', flags.concurrency, 4);
  const clients = await modelClients(flags, concurrency);
  mkdirSync(flags.out, { recursive: true });
  const run = openCurationRun({
    ...clients,
    rubrics: flags.rubrics,
    gate,
    mode,
    scoring,
    lambdas,
    cache: await cacheFlag(flags),
  });
  const decisionsPath = join(flags.out, 'decisions.jsonl');
  try {
    const r = await runJsonlCommand({
      inPath: flags.in,
      outPath: decisionsPath,
      schema: CandidateLine,
      example: '{"id":"c1","instruction":"a red apple","code":"<svg …/>","source":"github"}',
      label: 'curate',
      noun: 'candidates',
      concurrency,
      process: (c: z.infer<typeof CandidateLine>) => run.gate(c),
      faultOf: decisionFault,
      redo: (line) => decisionFault(line) !== null,
      slim: (d) => ({ decision: d.decision }),
      usageOf: (d) => addUsage(addUsage(d.usage.author, d.usage.judge), d.usage.generator),
      // The sidecar sits beside decisions.jsonl; the folder's other files are this shard's
      // alone until `rubrica merge` derives them again from the merged decisions.
      shard: shard && { ...shard, command: 'curate' },
    });
    const { funnel, ledger, kept, decisions } = await writeCurationOutputs(
      flags.out,
      decisionsPath,
    );
    process.stdout.write(
      `${formatFunnel(funnel)}\nkept ${kept} of ${decisions} candidates → ${flags.out}/kept.jsonl, kept.parquet; funnel.{json,txt,html}\n` +
        `cost: author ${formatUsage(ledger.author)}; judges ${formatUsage(ledger.judge)}; generator ${formatUsage(ledger.generator)}\n`,
    );
    finishJsonlCommand(
      r,
      {
        noun: 'candidates',
        inPath: flags.in,
        nothing: decisions && !kept ? `no candidate was kept of ${decisions}` : null,
      },
      setExit,
    );
  } finally {
    await run.close();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('curate')
    .description(
      'PrismaForge data gating: rubric-score candidates, re-synthesise the mid band, keep the best',
    )
    .requiredOption(
      '--in <file>',
      'candidates.jsonl: lines {"id","instruction","code","domain"?,"source"?}',
    )
    .requiredOption('--out <dir>', 'output folder (decisions.jsonl is appended; a re-run resumes)')
    .requiredOption(
      '--judge <spec>',
      'VLM for the vision rubric (and the holistic term), provider:model',
    )
    .option('--code-judge <spec>', 'LLM that reads the code (default: the judge)')
    .option(
      '--rubrics <file>',
      'prisma rubrics (rubric synth --preset prisma), by candidate id or instruction',
    )
    .option('--author <spec>', 'author model: writes the rubric of an instruction --rubrics lacks')
    .option(
      '--generator <spec>',
      'model that re-synthesises mid-band samples (needed unless --rounds 0)',
    )
    .option('--tau1 <x>', `discard below (default ${DEFAULT_GATE.tau1})`)
    .option('--tau2 <x>', `keep at or above (default ${DEFAULT_GATE.tau2})`)
    .option(
      '--rounds <n>',
      `re-synthesis rounds for the band [τ1, τ2) (default ${DEFAULT_GATE.rounds})`,
    )
    .option('--mode <mode>', 'judge mode: joint | per-item (default joint)')
    .option('--prisma-lambdas <spec>', 'λ overrides: family=λc:λv[:λh],… (docs/prismaforge.md)')
    .option('--concurrency <n>', 'candidates in flight at once (default 4)')
    .option('--judge-base-url <url>', 'judge base URL (also the code judge’s)')
    .option('--author-base-url <url>', 'author base URL')
    .option('--generator-base-url <url>', 'generator base URL')
    .option('--judge-timeout <ms>', 'per judge attempt, ms (default 120000)')
    .option('--judge-retries <n>', 'judge retries after the first attempt (default 4)')
    .option(
      '--cache <file|url>',
      'answer cache: SQLite file (default .rubrica/cache.sqlite) or redis://host:port/db',
    )
    .option('--no-cache', 'do not read or write the answer cache');
  addJudgingFlags(cmd);
  addShardFlags(cmd).action((f: Flags) => curate(f, setExit));
};
