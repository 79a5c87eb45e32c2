// The closing summary of a PrismaForge `rubric synth` run: how many rubrics were kept and
// dropped (by reason), the kept ones by difficulty, and what the author cost.
import { addUsage, emptyUsage } from '../core/usage.ts';
import { formatUsage } from '../reward/summary.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';

/** The lines `rubric synth --preset prisma` prints when the run ends. */
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
