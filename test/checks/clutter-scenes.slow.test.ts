// Issue 40 item 4 as a test: `clutter` gives room to the light a prompt asks for (stacked
// radial lights, beams, haze: overdraw 4–7 layers, which the fixed allowance of 4 flagged)
// and still flags junk piled on the same lit scenes (decorative strokes, stacked blobs).
// Held-out seed 41 (the factor was set on seed 40 and the 4.04 of the drawing).
import { beforeAll, describe, expect, it } from 'vitest';
import { type ClutterScene, clutterScenes } from './clutter-scenes.ts';
import { evaluate, type Outcome } from './evaluate.ts';

let scenes: ClutterScene[];
let outcomes: Outcome[];

beforeAll(async () => {
  scenes = clutterScenes(41, 20);
  outcomes = await evaluate(
    scenes.map((s) => ({
      id: s.id,
      family: s.kind,
      prompt: s.prompt,
      svg: s.svg,
      ...(s.junk ? { hack: 'clutter' as const } : {}),
    })),
  );
}, 600_000);

const part = (kind: ClutterScene['kind']) => outcomes.filter((_, i) => scenes[i]!.kind === kind);
const ids = (xs: Outcome[]) => xs.map((o) => o.item.id).join(', ');

describe('clutter with room for asked-for light', () => {
  it('does not flag lit scenes whose prompt asks for the layers (FP ≤ 2 %)', () => {
    const lit = part('lit');
    expect(lit.length).toBe(20);
    const fps = lit.filter((o) => o.flags.has('clutter'));
    expect(fps.length / lit.length, `FP: ${ids(fps)}`).toBeLessThanOrEqual(0.02);
    // They are layered: the old fixed allowance (4 layers) would flag most of them.
    const overdraws = lit.map(
      (o) => o.checks.find((c) => c.name === 'clutter')!.detail!.overdraw as number,
    );
    expect(overdraws.filter((v) => v >= 4).length).toBeGreaterThanOrEqual(10);
  });

  it.each(['lit+strokes', 'lit+blobs'] as const)(
    'flags junk piled on them: %s (recall ≥ 90 %%)',
    (kind) => {
      const junk = part(kind);
      const missed = junk.filter((o) => !o.flags.has('clutter'));
      expect(1 - missed.length / junk.length, `missed: ${ids(missed)}`).toBeGreaterThanOrEqual(0.9);
    },
  );
});
