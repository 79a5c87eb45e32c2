// Issue 40 item 2 on real drawings: `clipped` over the public-domain openclipart scenes of
// test/fixtures/scenes (real-scenes.ts), labelled by eye — 33 whole scenes and deliberate
// close-ups, 19 cut (18 cropped through a subject, one cut as its author drew it). Real
// renders through the isolated pool; the per-kind tables are printed.
// Asserted: no whole scene or close-up is flagged (FP ≤ 2 % is 0 of 33), the cuts caught
// today stay caught (recall is 10/19, short of the 90 % goal: the misses and why are in
// docs/artifact-and-checks.md), and no complete real drawing is flagged by output_tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import { realScenes } from './real-scenes.ts';
import {
  evaluateScenes,
  otherFlagsTable,
  type SceneOutcome,
  sceneFigures,
  sceneTable,
} from './scene-bench.ts';

let outcomes: SceneOutcome[];

beforeAll(async () => {
  outcomes = await evaluateScenes(realScenes());
  const figures = sceneTable(sceneFigures(outcomes));
  console.log(`real scenes: ${outcomes.length}\n${figures}\n\n${otherFlagsTable(outcomes)}`);
}, 600_000);

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');

// Cuts `clipped` catches today (a subject sliced through its body, with its own fill, smaller
// than the frame). The others are known misses, listed in the docs.
const CAUGHT = [
  'ayers-rock--cut',
  'baby-tux--cut',
  'bunny--cut',
  'chess-game--cut',
  'ice-water--cut',
  'park--cut',
  'place-setting--cut',
  'river-landscape',
  'river-landscape--cut',
  'sunflower--cut',
];

describe('clipped on real full-bleed scenes', () => {
  it('flags no whole scene and no deliberate close-up, of any background kind', () => {
    const clean = outcomes.filter((o) => !o.scene.cut);
    expect(clean.length).toBe(33);
    expect(ids(clean.filter((o) => o.flags.has('clipped')))).toBe('');
  });

  it('catches the cuts it caught when measured (10 of 19)', () => {
    const cut = outcomes.filter((o) => o.scene.cut);
    expect(cut.length).toBe(19);
    const missed = outcomes.filter(
      (o) => CAUGHT.includes(o.item.id.replace(/^real:|\.svg$/g, '')) && !o.flags.has('clipped'),
    );
    expect(ids(missed)).toBe('');
  });

  it('does not flag a complete real drawing as truncated or padded', () => {
    expect(ids(outcomes.filter((o) => o.flags.has('output_tokens')))).toBe('');
  });
});
