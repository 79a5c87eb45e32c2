// joinShardLines and mergeShards on files written here: lines come back in the input's
// order, a prompt's samples grouped under it in their shard's order; a line in the wrong
// shard, a key the input lacks and an unfinished shard are refused and nothing is written.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSha256, type ShardSidecar, shardOfId, writeSidecar } from './shard.ts';
import { mergeShards, ShardMergeError } from './shard-merge.ts';

const dir = mkdtempSync(join(tmpdir(), 'shard-merge-'));
const N = 2;
const PROMPTS = ['a', 'b', 'c', 'd', 'e', 'f'];

async function shardFiles(
  by: 'id' | 'prompt_id',
  complete = true,
  move?: string,
): Promise<string[]> {
  const input = join(dir, 'prompts.jsonl');
  writeFileSync(input, `${PROMPTS.map((id) => JSON.stringify({ id, prompt: id })).join('\n')}\n`);
  const sha = await fileSha256(input);
  return [0, 1].map((shard) => {
    const mine = PROMPTS.filter((p) => (shardOfId(p, N) === shard) !== (p === move));
    const rows =
      by === 'prompt_id'
        ? mine.flatMap((p) => [0, 1].map((k) => ({ id: `${p}#${k}`, prompt_id: p })))
        : mine.map((p) => ({ id: p }));
    const path = join(dir, `out.${by}.${shard}.jsonl`);
    // Written in reverse: the merge restores the input's order.
    writeFileSync(
      path,
      `${rows
        .reverse()
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
    const car: ShardSidecar = {
      rubrica_shard: 1,
      command: 'generate',
      shard,
      shards: N,
      input,
      input_sha256: sha,
      complete: complete || shard === 1,
      ...(by === 'prompt_id' ? { by } : {}),
    };
    writeSidecar(path, car);
    return path;
  });
}

const ids = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('mergeShards', () => {
  it('puts the lines in the order of the input; by prompt_id, a prompt keeps its samples', async () => {
    // Both shards hold prompts, else the test would not test joining.
    expect(new Set(PROMPTS.map((p) => shardOfId(p, N))).size).toBe(2);
    const byId = join(dir, 'm.id.jsonl');
    await mergeShards(byId, await shardFiles('id'));
    expect(ids(byId)).toEqual(PROMPTS);
    const byPrompt = join(dir, 'm.prompt.jsonl');
    const r = await mergeShards(byPrompt, (await shardFiles('prompt_id')).reverse());
    expect(r.lines).toBe(12);
    // Within a prompt, the shard's order (written reversed: #1 before #0).
    expect(ids(byPrompt)).toEqual(PROMPTS.flatMap((p) => [`${p}#1`, `${p}#0`]));
  });

  it('refuses a line in the wrong shard and an unfinished shard, writing nothing', async () => {
    const out = join(dir, 'never.jsonl');
    await expect(mergeShards(out, await shardFiles('prompt_id', true, 'c'))).rejects.toThrow(
      /holds prompt_id "c", which belongs to shard/,
    );
    await expect(mergeShards(out, await shardFiles('id', false))).rejects.toBeInstanceOf(
      ShardMergeError,
    );
    expect(existsSync(out)).toBe(false);
  });
});
