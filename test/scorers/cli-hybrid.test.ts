// The Reason-SVG loop through the real binary: `rubrica score --reward hybrid` with an
// in-process CLIP folder and a LAION head file on real rollouts, then `rubrica export sft`
// keeping the rollouts above a reward threshold.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { asCompletion, squiggleSpam } from './support/hack-svgs.ts';
import { type TinyClipSpec, writeTinyClip } from './support/tiny-clip.ts';

const spec: TinyClipSpec = {
  words: { a: [0.2, 0.2, 0.2, 0.5], cat: [0.3, 0.2, 0.1, 0.4], face: [0.3, 0.2, 0.1, 0.4] },
  hidden: 4,
  dim: 4,
  textProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  visionProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  imageSize: 32,
  imageMean: [0.5, 0.5, 0.5],
  imageStd: [0.5, 0.5, 0.5],
};
const DWT = [
  'Concept Sketching',
  'Canvas Planning',
  'Shape Decomposition',
  'Coordinate Calculation',
  'Styling and Colouring',
  'Final Assembly',
]
  .map((s, i) => `## ${i + 1}. ${s}\nA line of plan.`)
  .join('\n');

let dir: string;
const cat = fluentEmoji().find((c) => c.name === 'cat-face')!.svg;
const rollouts = [
  { id: 'cat#0', prompt_id: 'cat', prompt: 'a cat face', completion: asCompletion(cat, DWT) },
  { id: 'cat#1', prompt_id: 'cat', prompt: 'a cat face', completion: asCompletion(cat) },
  {
    id: 'cat#2',
    prompt_id: 'cat',
    prompt: 'a cat face',
    completion: asCompletion(squiggleSpam(200, 3), DWT),
  },
  { id: 'cat#3', prompt_id: 'cat', prompt: 'a cat face', completion: `${DWT}\nI ran out of time.` },
];

const rubrica = (...args: string[]) =>
  spawnSync('node', ['bin/rubrica.js', ...args], { encoding: 'utf8' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-cli-hybrid-'));
  writeTinyClip(join(dir, 'clip'), spec);
  writeFileSync(join(dir, 'head.json'), JSON.stringify({ w: [1, 1, 1, 1], b: 4 }));
  writeFileSync(
    join(dir, 'rollouts.jsonl'),
    rollouts.map((r) => `${JSON.stringify(r)}\n`).join(''),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rubrica score --reward hybrid, then export sft', () => {
  it('scores every rollout with its four terms and exports the ones above the threshold', () => {
    const scores = join(dir, 'scores.jsonl');
    const s = rubrica(
      'score',
      '--reward',
      'hybrid',
      '--in',
      join(dir, 'rollouts.jsonl'),
      '--out',
      scores,
      '--clip-model',
      join(dir, 'clip'),
      '--aesthetic-weights',
      join(dir, 'head.json'),
      '--no-cache',
    );
    expect(s.status, s.stderr).toBe(0);
    const recs = readFileSync(scores, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recs.map((r) => r.id)).toEqual(rollouts.map((r) => r.id));
    for (const r of recs) {
      expect(r.reward_kind).toBe('hybrid');
      expect(r.criteria.map((c: { key: string }) => c.key)).toEqual([
        'think',
        'render',
        'semantic',
        'aesthetic',
      ]);
    }
    expect(recs.slice(0, 3).map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    // The render term measures rendering: no SVG is a scored 0 on that term, not a rule-based 0.
    expect(recs[3]).toMatchObject({ status: 'ok', checks: { renders: false } });
    expect(recs[3].criteria[1].rationale).toContain('no_svg');
    expect(recs[3].reward).toBeCloseTo(0.1, 10); // a full plan without a drawing keeps λt·R_think
    // Same picture, with and without the plan: exactly λt apart.
    expect(recs[0].reward - recs[1].reward).toBeCloseTo(0.1, 10);
    expect(recs[2].checks.dwt_valid).toBe(true);

    const threshold = String((recs[0].reward + recs[1].reward) / 2);
    const out = join(dir, 'sft.jsonl');
    const e = rubrica(
      'export',
      'sft',
      '--rollouts',
      join(dir, 'rollouts.jsonl'),
      '--scores',
      scores,
      '--min-reward',
      threshold,
      '--require-dwt',
      '--dwt',
      '--with-meta',
      '--out',
      out,
    );
    expect(e.status, e.stderr).toBe(0);
    const kept = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const expected = recs.filter(
      (r) => r.status === 'ok' && r.reward >= Number(threshold) && r.checks.dwt_valid,
    );
    expect(kept.map((k) => k.meta.id)).toEqual(expected.map((r) => r.id));
    expect(kept.map((k) => k.meta.id)).not.toContain('cat#1');
    expect(kept[0].messages[2].content).toMatch(/^## 1\. Concept Sketching/);
  });

  it('exits 2 with a readable message when a hybrid term has no scorer', () => {
    const s = rubrica(
      'score',
      '--reward',
      'hybrid',
      '--in',
      join(dir, 'rollouts.jsonl'),
      '--out',
      join(dir, 'x.jsonl'),
      '--clip-model',
      join(dir, 'clip'),
      '--no-cache',
    );
    expect(s.status).toBe(2);
    expect(s.stderr).toContain('aesthetic term needs a scorer');
  });
});
