// `rubrica merge` for a sharded `curate`: each shard folder's decisions.jsonl holds the
// decisions of its candidates; the merged folder gets them in the order of the candidates
// file, and kept.jsonl, kept.parquet, the funnel and summary.json derived again from the
// merged decisions (as one run derives them from its whole decisions file), never added up
// from the shards' funnels.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ShardSidecar } from '../store/shard.ts';
import { type MergeResult, mergeJsonlShards, type ShardFile } from '../store/shard-merge.ts';
import { type CurationOutputs, writeCurationOutputs } from './outputs.ts';

export async function mergeCurateShards(
  out: string,
  set: { shards: ShardFile[]; car: ShardSidecar; input: string },
): Promise<MergeResult & { outputs: CurationOutputs }> {
  mkdirSync(out, { recursive: true });
  const decisions = join(out, 'decisions.jsonl');
  const r = await mergeJsonlShards(decisions, set);
  return { ...r, outputs: await writeCurationOutputs(out, decisions) };
}
