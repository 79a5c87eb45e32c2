// The start and end of a shard run, shared by every sharded command: before any work the
// sidecar is written with complete=false (a shard killed later is known to be unfinished),
// refusing an output that an earlier run wrote as another shard or for another command;
// once the run has done every item of its shard the sidecar says complete=true.
import {
  fileSha256,
  readSidecar,
  type ShardSidecar,
  type ShardSpec,
  writeSidecar,
} from '../store/shard.ts';
import { UsageError } from './usage-error.ts';

/** What a command records about its shard beside `outPath`. */
export interface ShardStart extends ShardSpec {
  command: string;
  by?: ShardSidecar['by'];
  options?: ShardSidecar['options'];
}

/** Writes the sidecar of a starting shard run (complete: false) and returns it. */
export async function startShard(
  shard: ShardStart,
  inPath: string,
  outPath: string,
): Promise<ShardSidecar> {
  const before = readSidecar(outPath);
  if (
    before &&
    (before.shard !== shard.index ||
      before.shards !== shard.count ||
      before.command !== shard.command)
  )
    throw new UsageError(
      `--out ${outPath} holds shard ${before.shard}/${before.shards} of \`${before.command}\`, not ${shard.index}/${shard.count} of \`${shard.command}\``,
    );
  // eval --policy places a prompt's samples by the prompt, eval --rollouts each rollout by
  // its id: one folder cannot hold shards of both.
  if (before && (before.by ?? 'id') !== (shard.by ?? 'id'))
    throw new UsageError(
      `--out ${outPath} holds a shard placed by ${before.by ?? 'id'}, this run places by ${shard.by ?? 'id'} (a different input kind)`,
    );
  const s: ShardSidecar = {
    rubrica_shard: 1,
    command: shard.command,
    shard: shard.index,
    shards: shard.count,
    input: inPath,
    input_sha256: await fileSha256(inPath),
    complete: false,
    ...(shard.by && shard.by !== 'id' ? { by: shard.by } : {}),
    ...(shard.options ? { options: shard.options } : {}),
  };
  writeSidecar(outPath, s);
  return s;
}

/** Marks a shard run finished (every item of the shard done) or still unfinished. */
export function endShard(outPath: string, s: ShardSidecar, complete: boolean): void {
  writeSidecar(outPath, { ...s, complete });
}
