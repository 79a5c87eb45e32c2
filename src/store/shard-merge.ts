// Joins the outputs of a sharded batch job into what one process would have written: one
// line per input id, in the order of the input file, each line byte for byte as its shard
// wrote it. The shards' sidecars must agree (same command, same N, same input bytes), each
// index 0..N-1 must be there once, every shard must have finished, and every line must sit
// in the shard its id hashes to; otherwise nothing is written.
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

async function* lines(path: string): AsyncGenerator<string> {
  const rl = createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const l of rl) yield l;
}

/** The id of a JSONL line, or null for a blank or bad line. */
function idOf(line: string): string | null {
  const t = line.trim();
  if (!t) return null;
  try {
    const v = JSON.parse(t.replace(/^\uFEFF/, '')) as { id?: unknown };
    return v && typeof v === 'object' ? keyOf(v.id) : null;
  } catch {
    return null;
  }
}

/** Checks the sidecars agree and cover 0..N-1 once each; returns the common one. */
function checkSidecars(paths: readonly string[]): ShardSidecar {
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
  return first;
}

/** What a merge wrote. */
export interface MergeResult {
  lines: number;
  shards: number;
  input: string;
}

/**
 * Merges shard outputs into `outPath` (written whole, then renamed into place). `inPath`
 * overrides the input path the sidecars recorded (e.g. another mount on this machine); its
 * bytes must hash to what the shards recorded.
 */
export async function mergeShards(
  outPath: string,
  shardPaths: readonly string[],
  inPath?: string,
): Promise<MergeResult> {
  if (!shardPaths.length) throw new ShardMergeError('give the shard outputs to merge');
  const car = checkSidecars(shardPaths);
  const input = inPath ?? car.input;
  let sha: string;
  try {
    sha = await fileSha256(input);
  } catch (err) {
    throw new ShardMergeError(`cannot read the input ${input}: ${(err as Error).message}`);
  }
  if (sha !== car.input_sha256)
    throw new ShardMergeError(
      `the input ${input} has changed since the shards ran (sha256 ${sha.slice(0, 12)}, shards recorded ${car.input_sha256.slice(0, 12)})`,
    );
  const byId = new Map<string, string>();
  for (const p of shardPaths) {
    const s = readSidecar(p)!;
    for await (const l of lines(p)) {
      const id = idOf(l);
      if (id === null) continue;
      if (shardOfId(id, car.shards) !== s.shard)
        throw new ShardMergeError(
          `${p} (shard ${s.shard}/${s.shards}) holds id ${JSON.stringify(id)}, which belongs to shard ${shardOfId(id, car.shards)}`,
        );
      byId.set(id, l);
    }
  }
  const out: string[] = [];
  for await (const l of lines(input)) {
    const id = idOf(l);
    const line = id === null ? undefined : byId.get(id);
    if (line === undefined) continue;
    out.push(line);
    byId.delete(id!); // a duplicate id in the input is written once, as one run does
  }
  if (byId.size)
    throw new ShardMergeError(
      `${byId.size} ids in the shards are not in the input ${input} (e.g. ${JSON.stringify(byId.keys().next().value)})`,
    );
  writeFileSync(`${outPath}.tmp`, out.length ? `${out.join('\n')}\n` : '');
  renameSync(`${outPath}.tmp`, outPath);
  return { lines: out.length, shards: car.shards, input };
}
