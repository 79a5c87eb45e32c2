// The GRPO groups a relative judge (pairwise or group, src/pipeline/relative.ts and
// group-relative.ts) may compare: the entries scored `ok` with a picture and a judge context,
// by group key, each group's entry indices in batch order. A rollout that failed, was gated or
// has no rubric context is never shown to a relative judge: it keeps its absolute record.
import { groupKey } from '../core/group-key.ts';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { sha256 } from '../rubric/prompt-file.ts';

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

/**
 * A group's members in canonical order — by the picture's hash, then the rollout id — so a
 * relative judge sees the same pictures in the same places whatever order the group arrived
 * in, and every rollout's reward is the same to the bit.
 */
export function canonicalOrder(
  members: readonly number[],
  entries: readonly { record: ScoreRecord; png: Buffer | null }[],
): number[] {
  const hash = new Map(members.map((i) => [i, sha256(entries[i]!.png!)]));
  return [...members].sort((x, y) => {
    const hx = hash.get(x)!;
    const hy = hash.get(y)!;
    if (hx !== hy) return hx < hy ? -1 : 1;
    const ix = entries[x]!.record.id;
    const iy = entries[y]!.record.id;
    return ix < iy ? -1 : ix > iy ? 1 : x - y;
  });
}
