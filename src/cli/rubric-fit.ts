// Refuses, before any model call, a rubrics file that cannot serve the requested reward:
// universal rubrics with `--reward ruler` used to give 100% `no_rubric`, silently.
import type { RewardKind } from '../core/record.ts';
import { INSTANCE_PRESET } from '../reward/kinds/index.ts';
import type { RubricRecord } from '../rubric/schema.ts';
import { UsageError } from './usage-error.ts';

/** Checks every requested reward that reads an instance rubric (ruler, rubric-s). */
export function checkRubricsFit(
  file: string,
  rubrics: readonly RubricRecord[],
  rewards: RewardKind | readonly RewardKind[],
): void {
  for (const reward of typeof rewards === 'string' ? [rewards] : rewards) {
    checkOne(file, rubrics, reward);
  }
}

function checkOne(file: string, rubrics: readonly RubricRecord[], reward: RewardKind): void {
  const preset = INSTANCE_PRESET[reward];
  if (!preset) return;
  const kept = rubrics.filter((r) => r.kept);
  if (kept.some((r) => r.preset === preset)) return;
  const have = new Map<string, number>();
  for (const r of kept) have.set(r.preset, (have.get(r.preset) ?? 0) + 1);
  const what = have.size
    ? `holds only ${[...have].map(([p, n]) => `${n} kept ${p}`).join(', ')} rubrics`
    : `has no kept rubric (${rubrics.length} lines, all dropped or unreadable)`;
  const alt = have.has('universal') ? '; or score with --reward universal' : '';
  throw new UsageError(
    `--rubrics ${file} ${what}, but --reward ${reward} needs kept ${preset} rubrics: every rollout would be no_rubric. ` +
      `Write them with: rubrica rubric synth --preset ${preset}${alt}`,
  );
}
