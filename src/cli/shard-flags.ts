// `--shard i/N` and `--shards N` for the resumable batch commands (score, rubric synth,
// generate, curate, eval): which shard of a sharded job this process is. i and N come from
// the flag, or with `--shard auto` (or `--shards N` alone) from the scheduler: Slurm's
// job-array variables or Kubernetes' Indexed Job `JOB_COMPLETION_INDEX`. Reading the
// environment only when asked keeps a plain run inside a Slurm array from being sharded by
// surprise. Bad values are usage errors (exit 2).
import type { Command } from 'commander';
import { readEnv } from '../core/env.ts';
import type { ShardSpec } from '../store/shard.ts';
import { UsageError } from './usage-error.ts';

/** The two flags as commander hands them over. */
export interface ShardFlags {
  shard?: string;
  shards?: string;
}

/** Adds --shard and --shards to a command. */
export function addShardFlags(cmd: Command): Command {
  return cmd
    .option(
      '--shard <i/N|auto>',
      "do only shard i of N (0-based, by sha256 of the input line's id: the prompt's for generate and eval --policy); auto: from SLURM_ARRAY_* or JOB_COMPLETION_INDEX (docs/sharding.md)",
    )
    .option('--shards <n>', 'number of shards when the index comes from JOB_COMPLETION_INDEX');
}

const INT = /^(0|[1-9]\d{0,8})$/;

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!INT.test(v)) throw new UsageError(`${name} must be a whole number, got "${v}"`);
  return Number(v);
}

function checked(index: number, count: number, from: string): ShardSpec {
  if (count < 1) throw new UsageError(`${from}: the number of shards must be at least 1`);
  if (index >= count)
    throw new UsageError(`${from}: shard index ${index} is not below the shard count ${count}`);
  return { index, count };
}

/** From the environment: Slurm array first, then a Kubernetes Indexed Job. */
function fromEnv(env: NodeJS.ProcessEnv, shards: number | undefined): ShardSpec {
  const id = int('SLURM_ARRAY_TASK_ID', readEnv('SLURM_ARRAY_TASK_ID', env));
  if (id !== undefined) {
    const min = int('SLURM_ARRAY_TASK_MIN', readEnv('SLURM_ARRAY_TASK_MIN', env)) ?? 0;
    const max = int('SLURM_ARRAY_TASK_MAX', readEnv('SLURM_ARRAY_TASK_MAX', env));
    const count =
      shards ??
      int('SLURM_ARRAY_TASK_COUNT', readEnv('SLURM_ARRAY_TASK_COUNT', env)) ??
      (max !== undefined ? max - min + 1 : undefined);
    if (count === undefined)
      throw new UsageError(
        '--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT',
      );
    if (id < min)
      throw new UsageError(
        `--shard auto: SLURM_ARRAY_TASK_ID ${id} is below SLURM_ARRAY_TASK_MIN ${min}`,
      );
    return checked(id - min, count, '--shard auto (Slurm array)');
  }
  const k = int('JOB_COMPLETION_INDEX', readEnv('JOB_COMPLETION_INDEX', env));
  if (k !== undefined) {
    if (shards === undefined)
      throw new UsageError(
        "--shard auto: JOB_COMPLETION_INDEX needs --shards N (the Job's completions)",
      );
    return checked(k, shards, '--shard auto (JOB_COMPLETION_INDEX)');
  }
  throw new UsageError('--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set');
}

/** The shard this process is, or undefined for an unsharded run. */
export function parseShardFlags(
  flags: ShardFlags,
  env: NodeJS.ProcessEnv = process.env,
): ShardSpec | undefined {
  const shards = int('--shards', flags.shards);
  if (flags.shard === undefined) return shards === undefined ? undefined : fromEnv(env, shards);
  if (flags.shard === 'auto') return fromEnv(env, shards);
  const m = /^(\d+)\/(\d+)$/.exec(flags.shard);
  if (!m) throw new UsageError(`--shard must be i/N (e.g. 0/4) or auto, got "${flags.shard}"`);
  const index = int('--shard index', m[1]) as number;
  const count = int('--shard count', m[2]) as number;
  if (shards !== undefined && shards !== count)
    throw new UsageError(`--shard ${flags.shard} disagrees with --shards ${shards}`);
  return checked(index, count, `--shard ${flags.shard}`);
}
