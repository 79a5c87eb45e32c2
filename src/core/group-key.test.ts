// One group rule: the same rollouts form the same GRPO groups through every user — serve's
// group statistics, the health monitor, eval's and probe's prompt ids (with or without a
// prompts file), and select's instructions.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import { readScores } from '../cli/commands/select.ts';
import { batchHealth } from '../monitors/health.ts';
import { groupStats } from '../server/groups.ts';
import { groupKey, normalisePrompt, promptIdResolver, promptKey } from './group-key.ts';
import type { ScoreRecord } from './record.ts';

// Two rollouts of p1 by id; two of "a red fox" by text only (spacing differs, ids differ and
// do not share a `#` prefix); two whose ids share a prefix but whose texts differ; one with
// nothing naming its prompt.
const rollouts = [
  { id: 'p1#0', prompt_id: 'p1', prompt: null },
  { id: 'p1#1', prompt_id: 'p1', prompt: 'ignored when prompt_id is there' },
  { id: 'x#0', prompt_id: null, prompt: 'a red fox' },
  { id: 'y#0', prompt_id: null, prompt: '  a red\n fox ' },
  { id: 'z#0', prompt_id: null, prompt: 'a whale' },
  { id: 'z#1', prompt_id: null, prompt: 'a boat' },
  { id: 'lone#0', prompt_id: null, prompt: null },
];
const EXPECTED = [[0, 1], [2, 3], [4], [5], [6]];

/** Rollout indices grouped by a key function, in first-seen order. */
function partition(keys: readonly string[]): number[][] {
  const by = new Map<string, number[]>();
  keys.forEach((k, i) => {
    by.set(k, [...(by.get(k) ?? []), i]);
  });
  return [...by.values()];
}

const rec = (r: (typeof rollouts)[number], reward: number): ScoreRecord =>
  scoreRecord({ id: r.id, prompt_id: r.prompt_id, reward });

describe('the group rule', () => {
  it('prompt_id, else the normalised prompt text, else the rollout alone', () => {
    expect(rollouts.map(groupKey)).toEqual([
      'p1',
      'p1',
      'prompt:a red fox',
      'prompt:a red fox',
      'prompt:a whale',
      'prompt:a boat',
      'id:lone#0',
    ]);
    expect(promptKey({ prompt_id: null, prompt: null })).toBeNull();
    expect(normalisePrompt(' a\t red \n fox ')).toBe('a red fox');
  });
});

describe('every user forms the same groups', () => {
  it('serve: group statistics', () => {
    const stats = groupStats(
      rollouts,
      rollouts.map((r, i) => rec(r, i / 10)),
    );
    expect(partition(stats.map((s) => s.group.key))).toEqual(EXPECTED);
    expect(stats.map((s) => s.group.size)).toEqual([2, 2, 2, 2, 1, 1, 1]);
  });

  it('monitors: flat groups over the same keys', () => {
    // Every group flat (equal rewards): the two groups of two are the learnable ones.
    const h = batchHealth(
      rollouts.map((r) => rec(r, 0.5)),
      (i) => groupKey(rollouts[i]!),
    );
    expect(h.groups).toBe(2);
    expect(h.flat_groups).toBe(2);
  });

  it('eval and probe: prompt ids, without and with a prompts file', () => {
    expect(partition(rollouts.map(promptIdResolver([])))).toEqual(EXPECTED);
    // A prompts file names the text-only prompt: its rollouts get that id, same group.
    const withFile = rollouts.map(promptIdResolver([{ id: 'fox', prompt: 'a red fox ' }]));
    expect(withFile.slice(2, 4)).toEqual(['fox', 'fox']);
    expect(partition(withFile)).toEqual(EXPECTED);
  });

  it('select: instructions of a scores file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-group-key-'));
    const file = join(dir, 'scores.jsonl');
    writeFileSync(
      file,
      rollouts.map((r, i) => JSON.stringify({ ...rec(r, i / 10), prompt: r.prompt })).join('\n'),
    );
    const { samples, skipped } = await readScores(file, undefined, promptIdResolver([]));
    // The rollout that names no prompt is no instruction: select skips it.
    expect(skipped).toBe(1);
    expect(partition(samples.map((s) => s.prompt_id))).toEqual(EXPECTED.slice(0, -1));
  });
});
