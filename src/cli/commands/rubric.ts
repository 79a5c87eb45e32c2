// `rubrica rubric synth`: write one rubric per prompt (RULER's two-step authoring, then
// the ideal filter; in the prompt's domain: `--domain`, or a line's `domain`), appending rubrics.jsonl line by line with crash-safe resume.
// Thin: parse flags, make the model clients, open the run (src/synth/run.ts), feed it the
// prompts, print a summary.

import { z } from 'zod';
import { AssetsInputSchema } from '../../core/assets.ts';
import { DOMAIN_IDS, type DomainId, isDomainId } from '../../core/domain-ids.ts';
import { createModelClient } from '../../models/client.ts';
import { isPresetName, PRESETS } from '../../rubric/presets.ts';
import { DEFAULT_CACHE_PATH } from '../../store/cache.ts';
import { DEFAULT_MIN_IDEAL } from '../../synth/ruler.ts';
import { openRulerSynthRun } from '../../synth/run.ts';
import { formatSynthSummary, summariseRubrics } from '../../synth/summary.ts';
import { addDataRootFlag, dataRootFlag } from '../assets-flag.ts';
import { asUsage, cacheFlag, judgeCallFlags, parseCount, parseMode, parseUnit } from '../flags.ts';
import { inputFile } from '../input-file.ts';
import { finishJsonlCommand, runJsonlCommand } from '../jsonl-command.ts';
import { addJudgingFlags, judgingFromFlags } from '../judging-flags.ts';
import { preflight } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
import { addRendererFlag, parseRenderer } from '../renderer-flag.ts';
import { addShardFlags, parseShardFlags } from '../shard-flags.ts';
import { IdSchema, type SynthFlags, synthFault } from '../synth-flags.ts';
import { UsageError } from '../usage-error.ts';

const PromptLine = z.object({
  id: IdSchema,
  prompt: z.string().min(1),
  /** The domain the prompt is answered in (else --domain, else svg). */
  domain: z.enum(DOMAIN_IDS).nullish(),
  /** The task's data files (name → inline content or `{ path }` under --data-root). */
  assets: AssetsInputSchema.nullish(),
});

/** The author and judge clients the flags name (none for an absent flag). */
function modelClients(flags: SynthFlags, concurrency: number) {
  const author = flags.author
    ? asUsage(() =>
        createModelClient(flags.author!, {
          role: 'author',
          baseUrl: flags.authorBaseUrl,
          concurrency,
        }),
      )
    : undefined;
  const judgeSpec = flags.judge;
  const judgeClient = judgeSpec
    ? asUsage(() =>
        createModelClient(judgeSpec, {
          role: 'judge',
          baseUrl: flags.judgeBaseUrl,
          concurrency: concurrency * 6,
          ...judgeCallFlags(flags),
        }),
      )
    : undefined;
  return { author, judgeClient };
}

/** RULER synthesis flags, checked before any model is made: each a usage error (exit 2). */
function checkFlags(flags: SynthFlags) {
  if (!isPresetName(flags.preset)) {
    throw new UsageError(
      `--preset must be one of ${[...PRESETS, 'prisma'].join(', ')}, got "${flags.preset}"`,
    );
  }
  const preset = flags.preset;
  const domain = synthDomainFlag(flags.domain);
  if (preset !== 'universal' && (!flags.author || !flags.judge))
    throw new UsageError(`--author and --judge are required for preset ${preset}`);
  const minIdeal = parseUnit('--min-ideal', flags.minIdeal, DEFAULT_MIN_IDEAL);
  const concurrency = parseCount('--concurrency', flags.concurrency, 4);
  const mode = parseMode(flags.mode);
  return { preset, domain, minIdeal, concurrency, mode };
}

async function synth(flags: SynthFlags, setExit: (code: number) => void): Promise<void> {
  inputFile('--in', flags.in); // before any model is made or called (exit 2 if not there)
  if (flags.preset === 'prisma') {
    const { synthPrisma } = await import('../prisma-synth.ts');
    return synthPrisma(flags, setExit);
  }
  const { preset, domain, minIdeal, concurrency, mode } = checkFlags(flags);
  const dataRoot = dataRootFlag(flags.dataRoot);
  const shard = parseShardFlags(flags);
  const { author, judgeClient } = modelClients(flags, concurrency);
  await preflight(author, 'author'); // dead models are found in seconds, not after retries
  await preflight(judgeClient, 'judge');

  const run = openRulerSynthRun({
    author,
    judge: judgeClient,
    mode,
    judging: judgingFromFlags(flags),
    preset,
    minIdeal,
    domain,
    cache: await cacheFlag(flags),
    renderer: parseRenderer(flags.renderer),
    ...(dataRoot ? { dataRoot } : {}),
  });
  try {
    const r = await runJsonlCommand({
      inPath: flags.in,
      outPath: flags.out,
      schema: PromptLine,
      example: '{"id":"p1","prompt":"a red fox curled up asleep"}',
      label: 'rubrics',
      noun: 'prompts',
      shard: shard && { ...shard, command: 'rubric synth' },
      concurrency,
      process: (it: z.infer<typeof PromptLine>) => run.synthesize(it),
      faultOf: synthFault,
      redo: (line) => synthFault(line) !== null,
      slim: ({ items: _i, ideal_svg: _s, ideal_code: _c, ...rest }) => ({
        ...rest,
        items: [],
        ideal_svg: null,
      }),
      usageOf: (rec) => rec.usage,
    });
    process.stdout.write(`${formatSynthSummary(summariseRubrics(r.records))}\n`);
    const kept = r.records.filter((x) => x.kept).length;
    finishJsonlCommand(
      r,
      {
        noun: 'prompts',
        inPath: flags.in,
        nothing:
          r.records.length && !kept ? `no rubric was kept of ${r.records.length} prompts` : null,
      },
      setExit,
    );
  } finally {
    await run.close();
  }
}

/** `--domain` of rubric synth: one domain id (no auto: the author needs to be told). */
export function synthDomainFlag(v: string | undefined): DomainId {
  if (v === undefined) return 'svg';
  if (isDomainId(v)) return v;
  throw new UsageError(`--domain must be one of ${DOMAIN_IDS.join(', ')}, got "${v}"`);
}

export const register: RegisterCommand = (program, setExit) => {
  const rubric = program
    .command('rubric')
    .description('instance rubrics (RULER; PrismaForge with --preset prisma)');
  const synthCmd = rubric
    .command('synth')
    .description(
      "write one rubric per prompt: ideal (SVG or the prompt domain's code), rubric, ideal filter",
    )
    .requiredOption(
      '--in <file>',
      'prompts.jsonl: lines {"id","prompt",…, "domain"?, "assets"?} (prisma: also "family", "reference")',
    )
    .requiredOption(
      '--out <file>',
      'rubrics.jsonl (appended; ids already done are skipped, author/judge failures redone)',
    )
    .option('--author <spec>', 'author model, provider:model (not needed for --preset universal)')
    .option('--judge <spec>', 'judge VLM for the filter, provider:model (not needed for universal)')
    .option(
      '--preset <name>',
      `rubric preset: ${PRESETS.join(' | ')} | prisma (code + vision rubrics; needs only --author)`,
      'ruler',
    )
    .option(
      '--min-ideal <x>',
      `keep a rubric when its ideal SVG scores ≥ x (default ${DEFAULT_MIN_IDEAL})`,
    )
    .option(
      '--domain <id>',
      `domain of prompts whose line names none: ${DOMAIN_IDS.join(', ')} (default svg); the ideal is written and rendered in it`,
    )
    .option('--mode <mode>', 'judge mode: joint | per-item (default joint)')
    .option('--concurrency <n>', 'prompts in flight at once (default 4)')
    .option(
      '--author-base-url <url>',
      'author base URL (else RUBRICA_AUTHOR_BASE_URL, else provider default)',
    )
    .option(
      '--judge-base-url <url>',
      'judge base URL (else RUBRICA_JUDGE_BASE_URL, else provider default)',
    )
    .option('--judge-timeout <ms>', 'per judge attempt, ms (default 120000)')
    .option('--judge-retries <n>', 'judge retries after the first attempt (default 4)')
    .option(
      '--cache <file|url>',
      `answer cache: SQLite file (default ${DEFAULT_CACHE_PATH}) or redis://host:port/db`,
    )
    .option('--no-cache', 'do not read or write the answer cache');
  addJudgingFlags(synthCmd);
  addDataRootFlag(addShardFlags(addRendererFlag(synthCmd))).action((flags: SynthFlags) =>
    synth(flags, setExit),
  );
};
