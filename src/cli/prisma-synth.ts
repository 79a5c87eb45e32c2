// `rubrica rubric synth --preset prisma`: one PrismaForge rubric (code + vision criteria,
// domain-shared + sample-specific, budgeted by difficulty) per instruction, appended to
// rubrics.jsonl with the same crash-safe resume as RULER's synthesis. Only an author model
// is needed: PrismaForge has no ideal-drawing filter.
import { z } from 'zod';
import { createModelClient } from '../models/client.ts';
import { formatPrismaSynthSummary } from '../synth/prisma-summary.ts';
import { openPrismaSynthRun } from '../synth/run.ts';
import { asUsage, cacheFlag, parseCount } from './flags.ts';
import { inputFile } from './input-file.ts';
import { finishJsonlCommand, runJsonlCommand } from './jsonl-command.ts';
import { preflight } from './preflight.ts';
import { parseShardFlags } from './shard-flags.ts';
import { IdSchema, type SynthFlags } from './synth-flags.ts';
import { UsageError } from './usage-error.ts';

const InstructionLine = z.object({
  id: IdSchema,
  prompt: z.string().min(1),
  domain: z.string().min(1).nullish(),
  family: z.string().min(1).nullish(),
  reference: z.string().nullish(),
});

const fault = (r: { drop_reason?: unknown }) =>
  r.drop_reason === 'author_error' ? 'author_error' : null;

export async function synthPrisma(
  flags: SynthFlags,
  setExit: (code: number) => void,
): Promise<void> {
  if (!flags.author) throw new UsageError('--author is required for preset prisma');
  const concurrency = parseCount('--concurrency', flags.concurrency, 4);
  const shard = parseShardFlags(flags);
  const author = asUsage(() =>
    createModelClient(flags.author!, { role: 'author', baseUrl: flags.authorBaseUrl, concurrency }),
  );
  await preflight(author, 'author');
  inputFile('--in', flags.in); // the command checked it; read it where it is used
  const run = openPrismaSynthRun({ author, domain: flags.domain, cache: await cacheFlag(flags) });
  try {
    const r = await runJsonlCommand({
      inPath: flags.in,
      outPath: flags.out,
      schema: InstructionLine,
      example: '{"id":"p1","prompt":"a bar chart of three fruits","domain":"svg"}',
      label: 'rubrics',
      noun: 'instructions',
      shard: shard && { ...shard, command: 'rubric synth' },
      concurrency,
      process: (it: z.infer<typeof InstructionLine>) => run.synthesize(it),
      faultOf: fault,
      redo: (line) => fault(line) !== null,
      slim: ({ code_items: _c, vision_items: _v, ...rest }) => ({ ...rest }),
      usageOf: (rec) => rec.usage,
    });
    process.stdout.write(`${formatPrismaSynthSummary(r.records)}\n`);
    const kept = r.records.filter((x) => x.kept).length;
    finishJsonlCommand(
      r,
      {
        noun: 'instructions',
        inPath: flags.in,
        nothing:
          r.records.length && !kept
            ? `no rubric was kept of ${r.records.length} instructions`
            : null,
      },
      setExit,
    );
  } finally {
    await run.close();
  }
}
