// Which shard of a sharded batch job an item belongs to, and the sidecar each shard writes
// beside its output (`OUT.shard.json`) so `rubrica merge` can refuse shards that are
// missing, duplicated, unfinished or from another input. An item goes to shard
// `int(sha256(id)[0:12 hex]) mod N`: a pure function of the id, so adding lines to the
// input never moves an id that was already done to another shard.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { checkRegularFileSync } from '../core/read-input-text.ts';

/** One shard of N (index 0-based). */
export interface ShardSpec {
  index: number;
  count: number;
}

/** The shard (0..count-1) an item id belongs to. */
export function shardOfId(id: string, count: number): number {
  const hex = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 12);
  return Number.parseInt(hex, 16) % count;
}

/** True when `id` is this shard's to do. */
export function inShard(id: string, spec: ShardSpec): boolean {
  return shardOfId(id, spec.count) === spec.index;
}

/** What a shard run records beside its output. */
export interface ShardSidecar {
  rubrica_shard: 1;
  /** The command that wrote the output (`score`, `curate`, ...). */
  command: string;
  shard: number;
  shards: number;
  /** The input path as given, and the sha256 of its bytes when the run started. */
  input: string;
  input_sha256: string;
  /** True once a run finished every item of the shard (not interrupted). */
  complete: boolean;
  /**
   * The field of an output line whose hash places it: `id` (absent: the default) when the
   * input's lines are the items, `prompt_id` when the input is a prompts file and each
   * prompt's samples are the items (`generate`, `eval --policy`): a prompt's samples stay
   * in one shard.
   */
  by?: 'id' | 'prompt_id';
  /** What `rubrica merge` needs of a command's run to redo its summaries (eval). */
  options?: Record<string, string | boolean | null>;
}

/** The sidecar path of a shard output. */
export function sidecarPath(outPath: string): string {
  return `${outPath}.shard.json`;
}

/** sha256 of a file's bytes, streamed. */
export async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Writes the sidecar atomically (write then rename), so a kill never leaves half of one. */
export function writeSidecar(outPath: string, s: ShardSidecar): void {
  const p = sidecarPath(outPath);
  writeFileSync(`${p}.tmp`, `${JSON.stringify(s)}\n`);
  renameSync(`${p}.tmp`, p);
}

/** Reads a shard output's sidecar, or null when there is none or it is not one. */
export function readSidecar(outPath: string): ShardSidecar | null {
  const p = sidecarPath(outPath);
  if (!existsSync(p)) return null;
  try {
    checkRegularFileSync(p); // a FIFO here is "no sidecar", never waited on
    const v = JSON.parse(readFileSync(p, 'utf8')) as ShardSidecar;
    return v && v.rubrica_shard === 1 ? v : null;
  } catch {
    return null;
  }
}
