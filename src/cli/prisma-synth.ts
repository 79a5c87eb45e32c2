// `rubrica rubric synth --preset prisma`: one PrismaForge rubric (code + vision criteria,
// domain-shared + sample-specific, budgeted by difficulty) per instruction, appended to
// rubrics.jsonl with the same crash-safe resume as RULER's synthesis. Only an author model
// is needed: PrismaForge has no ideal-drawing filter.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { addUsage, emptyUsage } from '../core/usage.ts';
import { createModelClient } from '../models/client.ts';
import { formatUsage } from '../reward/summary.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import { createPrismaSynthesizer } from '../synth/prisma.ts';
import { asUsage, openCacheFlag, parseCount } from './flags.ts';
import { finishJsonlCommand, runJsonlCommand } from './jsonl-command.ts';
import { preflight } from './preflight.ts';
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

export function formatPrismaSynthSummary(
  records: Pick<PrismaRubric, 'kept' | 'drop_reason' | 'difficulty' | 'usage'>[],
): string {
  const kept = records.filter((r) => r.kept).length;
  const dropped = new Map<string, number>();
  const byDifficulty = new Map<number, number>();
  let usage = emptyUsage();
  for (const r of records) {
    usage = addUsage(usage, r.usage);
    if (!r.kept)
      dropped.set(r.drop_reason ?? 'unknown', (dropped.get(r.drop_reason ?? 'unknown') ?? 0) + 1);
    else if (r.difficulty)
      byDifficulty.set(r.difficulty, (byDifficulty.get(r.difficulty) ?? 0) + 1);
  }
  const lines = [
    `prisma rubrics ${records.length}: ${kept} kept, ${records.length - kept} dropped`,
  ];
  if (dropped.size)
    lines.push(`dropped by reason: ${[...dropped].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (byDifficulty.size)
    lines.push(
      `kept by difficulty: ${[...byDifficulty]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}`,
    );
  lines.push(formatUsage(usage));
  return lines.join('\n');
}

export async function synthPrisma(
  flags: SynthFlags,
  setExit: (code: number) => void,
): Promise<void> {
  if (!flags.author) throw new UsageError('--author is required for preset prisma');
  const concurrency = parseCount('--concurrency', flags.concurrency, 4);
  const author = asUsage(() =>
    createModelClient(flags.author!, { role: 'author', baseUrl: flags.authorBaseUrl, concurrency }),
  );
  await preflight(author, 'author');
  if (!existsSync(flags.in)) throw new UsageError(`--in file not found: ${flags.in}`);
  const cache = openCacheFlag(flags);
  const synth = createPrismaSynthesizer({ author, cache });
  try {
    const r = await runJsonlCommand({
      inPath: flags.in,
      outPath: flags.out,
      schema: InstructionLine,
      example: '{"id":"p1","prompt":"a bar chart of three fruits","domain":"svg"}',
      label: 'rubrics',
      noun: 'instructions',
      concurrency,
      // A line's own domain wins; else --domain (the rubric's shared criteria follow it).
      process: (it: z.infer<typeof InstructionLine>) =>
        synth.synthesize({ ...it, domain: it.domain ?? flags.domain ?? null }),
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
    cache?.close();
  }
}
