// Where i/N come from: the flag, a Slurm array (0- or 1-based), a Kubernetes Indexed Job.
import { describe, expect, it } from 'vitest';
import { parseShardFlags } from './shard-flags.ts';
import { UsageError } from './usage-error.ts';

describe('parseShardFlags', () => {
  it('reads --shard i/N, Slurm array variables and JOB_COMPLETION_INDEX', () => {
    expect(parseShardFlags({}, { SLURM_ARRAY_TASK_ID: '2' })).toBeUndefined();
    expect(parseShardFlags({ shard: '3/4' }, {})).toEqual({ index: 3, count: 4 });
    const slurm1 = {
      SLURM_ARRAY_TASK_ID: '4',
      SLURM_ARRAY_TASK_MIN: '1',
      SLURM_ARRAY_TASK_MAX: '4',
    };
    expect(parseShardFlags({ shard: 'auto' }, slurm1)).toEqual({ index: 3, count: 4 });
    const slurm0 = { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '8' };
    expect(parseShardFlags({ shard: 'auto' }, slurm0)).toEqual({ index: 0, count: 8 });
    expect(parseShardFlags({ shards: '5' }, { JOB_COMPLETION_INDEX: '4' })).toEqual({
      index: 4,
      count: 5,
    });
  });

  it('refuses what cannot be a shard', () => {
    for (const [f, env] of [
      [{ shard: '4/4' }, {}],
      [{ shard: '0/0' }, {}],
      [{ shard: '1/4', shards: '3' }, {}],
      [{ shard: 'auto' }, { SLURM_ARRAY_TASK_ID: '1' }],
      [{ shard: 'auto' }, { JOB_COMPLETION_INDEX: '1' }],
      [{ shards: '2' }, { JOB_COMPLETION_INDEX: 'x' }],
    ] as const)
      expect(() => parseShardFlags(f, env)).toThrow(UsageError);
  });
});
