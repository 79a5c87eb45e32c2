// The GRPO groups a relative judge (pairwise or group, src/pipeline/relative.ts and
// group-relative.ts) may compare: the entries scored `ok` with a picture and a judge context,
// by group key, each group's entry indices in batch order. A rollout that failed, was gated or
// has no rubric context is never shown to a relative judge: it keeps its absolute record.
import { groupKey } from '../core/group-key.ts';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';

export function judgeableGroups(
  items: readonly RolloutInput[],
  entries: readonly { record: ScoreRecord; png: Buffer | null; context: unknown }[],
): number[][] {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    if (e.record.status !== 'ok' || !e.png || !e.context) return;
    const key = groupKey(items[i]!);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()];
}
