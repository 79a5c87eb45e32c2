// Joins the outputs of a sharded batch job into what one process would have written: the
// lines in the order of the input file, each line byte for byte as its shard wrote it. The
// shards' sidecars must agree (same command, same N, same input bytes), each index 0..N-1
// must be there once, every shard must have finished, and every line must sit in the shard
// its id (or prompt_id, for a prompts-file input) hashes to; otherwise nothing is written.
// The per-command merges (curate's folder, eval's run folder) build on these pieces.
import { createReadStream, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RubricaError } from '../core/errors.ts';
import { keyOf } from './jsonl.ts';
import { fileSha256, readSidecar, type ShardSidecar, shardOfId } from './shard.ts';

/** Why shard outputs cannot be merged (the CLI prints it as one line, exit 2). */
export class ShardMergeError extends RubricaError<'bad_shards'> {
  constructor(message: string) {
    super('bad_shards', message);
  }
}

export async function* fileLines(path: string): AsyncGenerator<string> {
  const rl = createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const l of rl) yield l;
}

/** A field of a JSONL line as an id, or null for a blank or bad line (or no such field). */
export function fieldOf(line: string, field: 'id' | 'prompt_id'): string | null {
  const t = line.trim();
  if (!t) return null;
  try {
    const v = JSON.parse(t.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    return v && typeof v === 'object' ? keyOf(v[field]) : null;
  } catch {
    return null;
  }
}

/** One shard output file and its sidecar. */
export interface ShardFile {
  path: string;
  car: ShardSidecar;
}

/**
 * Checks the sidecars agree and cover 0..N-1 once each, and that the input still has the
 * bytes the shards read (`inPath` overrides the path they recorded). Returns the shards in
 * index order, the common sidecar and the input path.
 */
export async function checkShardSet(
  paths: readonly string[],
  inPath?: string,
): Promise<{ shards: ShardFile[]; car: ShardSidecar; input: string }> {
  if (!paths.length) throw new ShardMergeError('give the shard outputs to merge');
  const cars = paths.map((p) => {
    const s = readSidecar(p);
    if (!s)
      throw new ShardMergeError(`${p} has no shard sidecar ${p}.shard.json (not a --shard output)`);
    return s;
  });
  const first = cars[0]!;
  const seen = new Map<number, string>();
  cars.forEach((s, k) => {
    const p = paths[k]!;
    if (s.command !== first.command || s.shards !== first.shards)
      throw new ShardMergeError(
        `${p} is shard ${s.shard}/${s.shards} of \`${s.command}\`, ${paths[0]} of ${first.shards} of \`${first.command}\``,
      );
    if (s.input_sha256 !== first.input_sha256)
      throw new ShardMergeError(
        `${p} and ${paths[0]} were made from different inputs (sha256 ${s.input_sha256.slice(0, 12)} vs ${first.input_sha256.slice(0, 12)})`,
      );
    const dup = seen.get(s.shard);
    if (dup !== undefined)
      throw new ShardMergeError(`shard ${s.shard}/${s.shards} given twice: ${dup} and ${p}`);
    seen.set(s.shard, p);
    if (!s.complete)
      throw new ShardMergeError(
        `${p} (shard ${s.shard}/${s.shards}) is unfinished; run its command again to resume it`,
      );
  });
  const missing = Array.from({ length: first.shards }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length)
    throw new ShardMergeError(
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shards}`).join(', ')}`,
    );
  const input = inPath ?? first.input;
  let sha: string;
  try {
    sha = await fileSha256(input);
  } catch (err) {
    throw new ShardMergeError(`cannot read the input ${input}: ${(err as Error).message}`);
  }
  if (sha !== first.input_sha256)
    throw new ShardMergeError(
      `the input ${input} has changed since the shards ran (sha256 ${sha.slice(0, 12)}, shards recorded ${first.input_sha256.slice(0, 12)})`,
    );
  const shards = paths
    .map((path, k) => ({ path, car: cars[k]! }))
    .sort((a, b) => a.car.shard - b.car.shard);
  return { shards, car: first, input };
}

/** How to join shard files whose lines are keyed by something other than the input's ids. */
export interface JoinSpec {
  /** The keys in the order of the merged file (a key's lines keep their shard's order). */
  order: AsyncIterable<string | null>;
  /** What `order` is, in messages ("the input x.jsonl"). */
  orderName: string;
  /** The key a line is written under. */
  keyField: 'id' | 'prompt_id';
  /** The field whose hash says which shard a line must sit in. */
  shardField: 'id' | 'prompt_id';
}

/**
 * Joins shard files into `outPath` (written whole, then renamed into place): under each key
 * of `order`, the lines of that key, one per line id. A key given twice in `order` is
 * written once, as one run does with a duplicate id.
 */
export async function joinShardLines(
  outPath: string,
  shards: readonly ShardFile[],
  spec: JoinSpec,
): Promise<number> {
  const byKey = new Map<string, Map<string, string>>();
  for (const { path, car } of shards) {
    for await (const l of fileLines(path)) {
      const id = fieldOf(l, 'id');
      if (id === null) continue;
      const at = fieldOf(l, spec.shardField);
      if (at === null || shardOfId(at, car.shards) !== car.shard)
        throw new ShardMergeError(
          `${path} (shard ${car.shard}/${car.shards}) holds ${spec.shardField} ${JSON.stringify(at)}, which belongs to shard ${at === null ? 'none' : shardOfId(at, car.shards)}`,
        );
      const key = spec.keyField === 'id' ? id : fieldOf(l, spec.keyField);
      if (key === null) continue;
      const group = byKey.get(key) ?? new Map<string, string>();
      byKey.set(key, group.set(id, l));
    }
  }
  const out: string[] = [];
  for await (const key of spec.order) {
    const group = key === null ? undefined : byKey.get(key);
    if (group === undefined) continue;
    out.push(...group.values());
    byKey.delete(key!);
  }
  if (byKey.size)
    throw new ShardMergeError(
      `${byKey.size} ${spec.keyField}s in the shards are not in ${spec.orderName} (e.g. ${JSON.stringify(byKey.keys().next().value)})`,
    );
  writeFileSync(`${outPath}.tmp`, out.length ? `${out.join('\n')}\n` : '');
  renameSync(`${outPath}.tmp`, outPath);
  return out.length;
}

/** The ids of a JSONL file's lines, in order (null for a blank or bad line). */
export async function* idsOf(path: string): AsyncGenerator<string | null> {
  for await (const l of fileLines(path)) yield fieldOf(l, 'id');
}

/** What a merge wrote. */
export interface MergeResult {
  lines: number;
  shards: number;
  input: string;
  command: string;
}

/**
 * Merges checked shard files of one JSONL output into `outPath`, in the order of the input:
 * one line per input id, or for a prompts-file input (sidecar `by: prompt_id`) each
 * prompt's samples in the order their shard wrote them.
 */
export async function mergeJsonlShards(
  outPath: string,
  set: { shards: ShardFile[]; car: ShardSidecar; input: string },
): Promise<MergeResult> {
  const by = set.car.by ?? 'id';
  const lines = await joinShardLines(outPath, set.shards, {
    order: idsOf(set.input),
    orderName: `the input ${set.input}`,
    keyField: by,
    shardField: by,
  });
  return { lines, shards: set.car.shards, input: set.input, command: set.car.command };
}

/** Checks shard files of one JSONL output and merges them (score, rubric synth, generate). */
export async function mergeShards(
  outPath: string,
  shardPaths: readonly string[],
  inPath?: string,
): Promise<MergeResult> {
  return mergeJsonlShards(outPath, await checkShardSet(shardPaths, inPath));
}
