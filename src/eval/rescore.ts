// `rubrica rescore`, the library part: judge a finished run's rollouts again with another
// judge, mode or scoring, and say what changed (rescore-diff.ts). The new judge looks at the
// picture the run kept where it kept one (an eval run's images/), never at a new drawing of
// it; otherwise the completion is drawn again. The old judge is never asked. Every GRPO group
// is scored as one batch, so relative judging (`pairwise`) sees the whole group.
import { groupKey } from '../core/group-key.ts';
import { INPUT_READ_TIMEOUT_MS, readInputFileBytes } from '../core/read-input-text.ts';
import type { ScoreRecord } from '../core/record.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import type { InspectFn } from '../inspect/types.ts';
import type { RolloutScorer } from '../pipeline/types.ts';
import { type RescoreDiff, rescoreDiff } from './rescore-diff.ts';
import type { RescoreItem } from './rescore-inputs.ts';

/**
 * An inspection that judges the kept picture: the completion is inspected as usual (its
 * checks), and where the run kept a picture for it, that picture replaces the new drawing.
 */
export function keptPictureInspect(items: readonly RescoreItem[]): InspectFn {
  const kept = new Map<string, string>();
  for (const it of items) if (it.image) kept.set(it.rollout.completion, it.image);
  return async (completion, opts) => {
    const ins = await inspectCompletion(completion, opts);
    const path = kept.get(completion);
    if (!path || !ins.render?.ok) return ins;
    // A kept picture that is a FIFO or a device is refused (InputFileError), never waited on;
    // one that is gone leaves the new drawing.
    const png = await readInputFileBytes(path, 256 * 1024 ** 2, INPUT_READ_TIMEOUT_MS);
    return png === null ? ins : { ...ins, render: { ...ins.render, png } };
  };
}

export interface RescoreResult {
  records: ScoreRecord[];
  diff: RescoreDiff;
}

/** Scores `items` group by group with `scorer` (built with keptPictureInspect) and diffs. */
export async function rescore(
  items: readonly RescoreItem[],
  scorer: Pick<RolloutScorer, 'scoreBatch'>,
): Promise<RescoreResult> {
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => {
    const key = groupKey(it.rollout);
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const records: ScoreRecord[] = new Array(items.length);
  await Promise.all(
    [...groups.values()].map(async (idx) => {
      const recs = await scorer.scoreBatch(idx.map((i) => items[i]!.rollout));
      idx.forEach((i, k) => {
        records[i] = recs[k]!;
      });
    }),
  );
  const diff = rescoreDiff(
    items.map((it, i) => ({
      id: it.rollout.id,
      prompt_id: it.rollout.prompt_id ?? null,
      prompt: it.rollout.prompt ?? null,
      old: it.old,
      fresh: { reward: records[i]!.reward, status: records[i]!.status },
    })),
  );
  return { records, diff };
}
