// `rubrica curate`: PrismaForge's data gating over a candidates file. Each candidate is one
// unit (src/curation/curate.ts) whose decision is appended to <out>/decisions.jsonl with the
// resumable JSONL runner (lock, torn-line repair, progress, skip done ids, redo grader
// faults); the kept SFT set (kept.jsonl, kept.parquet), the funnel per source (funnel.json,
// funnel.txt, funnel.html) and the cost ledger (summary.json) are then derived from the whole
// decisions file, so a resumed run reports on everything decided so far.
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { z } from 'zod';
import { addUsage, emptyUsage } from '../../core/usage.ts';
import { DEFAULT_GATE, type Decision, gateCandidate } from '../../curation/curate.ts';
import { createCurateDeps } from '../../curation/curate-deps.ts';
import { createFunnel, formatFunnel, funnelHtml } from '../../curation/funnel.ts';
import { jsonLines } from '../../curation/json-lines.ts';
import { inspectCompletion } from '../../inspect/inspect.ts';
import { createPrismaJudge } from '../../judge/prisma-judges.ts';
import { createModelClient } from '../../models/client.ts';
import { createRenderPool } from '../../render/pool.ts';
import {
  DEFAULT_FAMILY_LAMBDAS,
  LambdaError,
  parseLambdaOverrides,
} from '../../reward/families.ts';
import { formatUsage } from '../../reward/summary.ts';
import { indexPrismaRubrics } from '../../rubric/prisma-load.ts';
import { createPrismaSynthesizer, prismaAuthorVersion } from '../../synth/prisma.ts';
import {
  asUsage,
  judgeCallFlags,
  openCacheFlag,
  parseCount,
  parseMode,
  parseUnit,
} from '../flags.ts';
import { finishJsonlCommand, runJsonlCommand } from '../jsonl-command.ts';
import { preflight } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
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

interface Flags {
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

const fault = (d: { decision?: unknown; reason?: unknown }) =>
  d.decision === 'grader_error' ? String(d.reason ?? 'grader_error') : null;

/**
 * Streams decisions.jsonl twice: first the last line of each id (a redone grader fault's
 * newer line wins when an interrupted run left both), then those lines, so only ids — not
 * the decisions with their code — are held in memory.
 */
async function* readDecisions(file: string): AsyncGenerator<Decision> {
  const last = new Map<string, number>();
  const id = (v: unknown) => (v as { id?: unknown } | null)?.id;
  for await (const { line, value } of jsonLines(file)) {
    if (typeof id(value) === 'string') last.set(id(value) as string, line);
  }
  for await (const { line, value } of jsonLines(file)) {
    if (typeof id(value) === 'string' && last.get(id(value) as string) === line)
      yield value as Decision;
  }
}

const fenced = (d: Decision) => `\`\`\`${d.domain}\n${d.code}\n\`\`\``;

/** kept.jsonl (streamed), kept.parquet (kept rows only in memory), funnel.*, summary.json. */
async function writeOutputs(out: string, decisionsPath: string) {
  const counter = createFunnel();
  const ledger = { author: emptyUsage(), judge: emptyUsage(), generator: emptyUsage() };
  const kept: Omit<Decision, 'rounds' | 'usage'>[] = [];
  const keptRounds: number[] = [];
  const sft = createWriteStream(join(out, 'kept.jsonl'));
  let decisions = 0;
  for await (const d of readDecisions(decisionsPath)) {
    decisions++;
    counter.add(d);
    for (const k of ['author', 'judge', 'generator'] as const)
      ledger[k] = addUsage(ledger[k], d.usage[k]);
    if (d.decision !== 'kept' && d.decision !== 'recovered') continue;
    const { rounds, usage: _u, ...rest } = d;
    kept.push(rest);
    keptRounds.push(rounds.length - 1);
    const line = JSON.stringify({
      messages: [
        { role: 'user', content: d.instruction },
        { role: 'assistant', content: fenced(d) },
      ],
      meta: {
        id: d.id,
        source: d.source,
        domain: d.domain,
        decision: d.decision,
        score: d.final_score,
        rounds: rounds.length - 1,
      },
    });
    if (!sft.write(`${line}\n`)) await new Promise<void>((r) => sft.once('drain', () => r()));
  }
  await new Promise<void>((r) => sft.end(() => r()));
  parquetWriteFile({
    filename: join(out, 'kept.parquet'),
    columnData: [
      { name: 'id', data: kept.map((d) => d.id), type: 'STRING' },
      { name: 'source', data: kept.map((d) => d.source), type: 'STRING' },
      { name: 'domain', data: kept.map((d) => d.domain), type: 'STRING' },
      { name: 'instruction', data: kept.map((d) => d.instruction), type: 'STRING' },
      { name: 'code', data: kept.map((d) => d.code ?? ''), type: 'STRING' },
      { name: 'decision', data: kept.map((d) => d.decision), type: 'STRING' },
      { name: 'score', data: kept.map((d) => d.final_score ?? 0), type: 'DOUBLE' },
      { name: 'rounds', data: keptRounds, type: 'INT32' },
    ],
  });
  const f = counter.result();
  writeFileSync(join(out, 'funnel.json'), `${JSON.stringify(f, null, 2)}\n`);
  writeFileSync(join(out, 'funnel.txt'), `${formatFunnel(f)}\n`);
  writeFileSync(join(out, 'funnel.html'), funnelHtml(f));
  writeFileSync(
    join(out, 'summary.json'),
    `${JSON.stringify({ decisions, kept: kept.length, funnel: f.total, ledger }, null, 2)}\n`,
  );
  return { f, ledger, kept: kept.length, decisions };
}

function parseRounds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_GATE.rounds;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--rounds must be an integer ≥ 0, got "${raw}"`);
  return n;
}

async function curate(flags: Flags, setExit: (code: number) => void): Promise<void> {
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
  if (!existsSync(flags.in)) throw new UsageError(`--in file not found: ${flags.in}`);
  if (flags.rubrics && !existsSync(flags.rubrics))
    throw new UsageError(`--rubrics file not found: ${flags.rubrics}`);
  let lambdas = DEFAULT_FAMILY_LAMBDAS;
  try {
    if (flags.prismaLambdas) lambdas = parseLambdaOverrides(flags.prismaLambdas);
  } catch (err) {
    if (err instanceof LambdaError) throw new UsageError(`--prisma-lambdas: ${err.message}`);
    throw err;
  }
  const mode = parseMode(flags.mode);
  const concurrency = parseCount('--concurrency', flags.concurrency, 4);
  const judgeOpts = {
    baseUrl: flags.judgeBaseUrl,
    concurrency: concurrency * 2,
    ...judgeCallFlags(flags),
  };
  const judge = asUsage(() => createModelClient(flags.judge, { role: 'judge', ...judgeOpts }));
  const codeJudge = flags.codeJudge
    ? asUsage(() => createModelClient(flags.codeJudge!, { role: 'judge', ...judgeOpts }))
    : judge;
  const author = flags.author
    ? asUsage(() =>
        createModelClient(flags.author!, {
          role: 'author',
          baseUrl: flags.authorBaseUrl,
          concurrency,
        }),
      )
    : undefined;
  const generator = flags.generator
    ? asUsage(() =>
        createModelClient(flags.generator!, {
          role: 'policy',
          baseUrl: flags.generatorBaseUrl,
          concurrency,
        }),
      )
    : undefined;
  for (const [c, role] of [
    [judge, 'judge'],
    [codeJudge, 'judge'],
    [author, 'author'],
    [generator, 'policy'],
  ] as const)
    await preflight(c, role);
  mkdirSync(flags.out, { recursive: true });
  const cache = openCacheFlag(flags);
  const renderer = createRenderPool();
  const deps = createCurateDeps({
    rubrics: flags.rubrics ? indexPrismaRubrics(flags.rubrics) : undefined,
    synthesizer: author ? createPrismaSynthesizer({ author, cache }) : undefined,
    graders: {
      codeJudge: createPrismaJudge({ client: codeJudge, mode, cache }),
      visionJudge: createPrismaJudge({ client: judge, mode, cache }),
      lambdas,
    },
    generator,
    renderer,
    inspect: inspectCompletion,
    cache,
    identity: [
      judge.spec.id,
      codeJudge.spec.id,
      author?.spec.id ?? 'none',
      generator?.spec.id ?? 'none',
      mode,
      prismaAuthorVersion(),
      JSON.stringify(lambdas),
    ],
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
      process: (c: z.infer<typeof CandidateLine>) => gateCandidate(c, gate, deps),
      faultOf: fault,
      redo: (line) => fault(line) !== null,
      slim: (d) => ({ decision: d.decision }),
      usageOf: (d) => addUsage(addUsage(d.usage.author, d.usage.judge), d.usage.generator),
    });
    const { f, ledger, kept, decisions } = await writeOutputs(flags.out, decisionsPath);
    process.stdout.write(
      `${formatFunnel(f)}\nkept ${kept} of ${decisions} candidates → ${flags.out}/kept.jsonl, kept.parquet; funnel.{json,txt,html}\n` +
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
    cache?.close();
    await renderer.close();
  }
}

export const register: RegisterCommand = (program, setExit) => {
  program
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
    .option('--cache <file>', 'answer cache (default .rubrica/cache.sqlite)')
    .option('--no-cache', 'do not read or write the answer cache')
    .action((f: Flags) => curate(f, setExit));
};
