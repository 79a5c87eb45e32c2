// `rubrica score --judging pairwise`: rollouts are judged against their GRPO group, so a
// rollout cannot be scored alone as it is read. Before the run, the input is read once to
// count, per group (core/group-key.ts), the rollouts this run will score (not done in the
// output already; a resumed run compares a group's remaining rollouts with each other). Each
// rollout then waits until its group is complete, and the whole group is scored as one batch
// (pipeline/relative.ts). The JSONL runner must be allowed to start every rollout at once
// (its concurrency the line count): the scorer's own limit bounds the work in flight.

import type { z } from 'zod';
import { groupKey } from '../core/group-key.ts';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { openJsonlOutput, readJsonlItems } from '../store/jsonl.ts';

export interface GroupBatcher {
  score(item: RolloutInput): Promise<ScoreRecord>;
  /** Rollouts this run will score (the JSONL runner's concurrency). */
  readonly total: number;
}

/** Counts the rollouts per group that a run over `inPath` into `outPath` will score. */
export async function groupSizes<I extends RolloutInput>(
  inPath: string,
  outPath: string,
  schema: z.ZodType<I>,
  redo: (line: Record<string, unknown>) => boolean,
): Promise<Map<string, number>> {
  let done: ReadonlySet<string> = new Set();
  try {
    const out = await openJsonlOutput(outPath, { redo, lock: false });
    done = out.done;
    out.close();
  } catch {
    // No readable output yet: the run itself reports a bad --out.
  }
  const sizes = new Map<string, number>();
  const seen = new Set<string>();
  for await (const x of readJsonlItems(inPath, schema, { example: '' })) {
    if (!('item' in x)) continue;
    const id = x.item.id;
    if (seen.has(id) || done.has(id)) continue;
    seen.add(id);
    const key = groupKey(x.item);
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  return sizes;
}

/** Holds each rollout until its group is complete, then scores the group as one batch. */
export function createGroupBatcher(
  sizes: ReadonlyMap<string, number>,
  scoreBatch: (items: RolloutInput[]) => Promise<ScoreRecord[]>,
): GroupBatcher {
  const open = new Map<
    string,
    {
      items: RolloutInput[];
      waiters: { ok: (r: ScoreRecord) => void; fail: (e: unknown) => void }[];
    }
  >();
  let total = 0;
  for (const n of sizes.values()) total += n;
  return {
    total,
    score(item) {
      const key = groupKey(item);
      const want = sizes.get(key) ?? 1;
      let g = open.get(key);
      if (!g) {
        g = { items: [], waiters: [] };
        open.set(key, g);
      }
      const group = g;
      const p = new Promise<ScoreRecord>((ok, fail) => group.waiters.push({ ok, fail }));
      group.items.push(item);
      if (group.items.length >= want) {
        open.delete(key);
        scoreBatch(group.items).then(
          (recs) => {
            for (const [i, w] of group.waiters.entries()) w.ok(recs[i]!);
          },
          (err: unknown) => {
            for (const w of group.waiters) w.fail(err);
          },
        );
      }
      return p;
    },
  };
}
