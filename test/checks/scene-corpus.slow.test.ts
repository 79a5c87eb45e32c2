// Issue 40's goal for `clipped`, as a test: on full-bleed scenes (scene-corpus.ts) — subjects
// over gradients, rays, bokeh, glows, noise, patterns, bands split by a stem, walls, columns,
// furniture and drapes — no whole subject is flagged and at least 90 % of cut ones are, per
// background kind; a title running off the frame is caught; a deliberate close-up is not
// flagged. Real renders through the isolated pool; the table is printed. Seed 41 is the
// held-out seed (the rule was tuned on 40); 20 scenes a kind keep the run under a minute.
// The line-art family (stroke-only subjects over the same backgrounds, frame-strokes.ts) is
// held to the same goal on seed 41: today 0/40 whole flagged, 39/40 cut caught; so is its
// loose form (the same figures as ungrouped top-level strokes): 0/40 and 39/40. So is the
// backdrop-disc family (subjects over a planet or light disc laid from the frame's edge,
// frame-discs.ts; tuned on seed 40): on seed 41, 0/40 whole flagged (32/40 before the disc
// reading), 39/40 cut caught; and its grouped form (each disc and its marks one group):
// 0/40 (36/40 before), 39/40; and the line-art family with a disc behind each figure: 0/40
// (34/40 before line-art figures counted as figures in front), 39/40. The backdrop-disc-inside
// family (very big discs centred up to a quarter of their radius inside a side, session 41;
// seeds 40–42 seen while building the reading) is held on seed 43, held out and run once:
// 0/40 whole flagged (29/40 before), 40/40 cut caught. Since the open-line reading
// (frame-strokes.ts openLinesCut) the line-art families on seed 41 catch 40/40.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateScenes, type SceneOutcome, sceneFigures, sceneTable } from './scene-bench.ts';
import { backdropDiscScenes, lineArtScenes, SCENE_KINDS, sceneCorpus } from './scene-corpus.ts';

let outcomes: SceneOutcome[];

beforeAll(async () => {
  outcomes = await evaluateScenes([
    ...sceneCorpus(41, 20),
    ...lineArtScenes(41),
    ...lineArtScenes(41, 40, true),
    ...backdropDiscScenes(41),
    ...backdropDiscScenes(41, 40, true),
    ...lineArtScenes(41, 40, false, true),
    ...backdropDiscScenes(43, 40, false, true),
  ]);
  console.log(
    `scene corpus, seed 41 (backdrop-disc-inside 43): ${outcomes.length}\n${sceneTable(sceneFigures(outcomes))}`,
  );
}, 600_000);

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');

describe('clipped on full-bleed scenes', () => {
  it.each([
    ...SCENE_KINDS,
    'text-off-frame',
    'line-art',
    'line-art-loose',
    'backdrop-disc',
    'backdrop-disc-grouped',
    'backdrop-disc-line-art',
    'backdrop-disc-inside',
  ])('%s: FP ≤ 2 %% and recall ≥ 90 %%', (kind) => {
    const part = outcomes.filter((o) => o.scene.kind === kind);
    expect(part.length).toBeGreaterThanOrEqual(20);
    const fps = part.filter((o) => !o.scene.cut && o.flags.has('clipped'));
    const cut = part.filter((o) => o.scene.cut);
    const missed = cut.filter((o) => !o.flags.has('clipped'));
    expect(fps.length / (part.length - cut.length), `FP: ${ids(fps)}`).toBeLessThanOrEqual(0.02);
    expect(1 - missed.length / cut.length, `missed: ${ids(missed)}`).toBeGreaterThanOrEqual(0.9);
  });

  it('does not flag deliberate close-ups, and reports most of them as close-ups', () => {
    const part = outcomes.filter((o) => o.scene.kind === 'close-up');
    expect(ids(part.filter((o) => o.flags.has('clipped')))).toBe('');
    const reported = part.filter(
      (o) => o.checks.find((c) => c.name === 'clipped')?.detail?.closeUp === true,
    );
    expect(reported.length / part.length).toBeGreaterThanOrEqual(0.4);
  });
});
