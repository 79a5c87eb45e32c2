// Issue 40, the fourth blind measure (7 Dec 2026, session 41): `clipped` (and clutter,
// output_tokens with each item's prompt) over the sixth model-written set
// (test/fixtures/scenes-model-f, 40 answers to 20 prompts new to the first five sets, 10 of
// them line art), labelled by eye on the renders before any check ran on them, written apart
// from the rule. Its helper read no rule source; its first command listed five commit
// subjects (one names model-e's blind result), and it saw the composed families' names in
// scene-bench.ts (its README says so). Run once, on the rule frozen at 3c3c265 (the widened
// disc reading included): FP 0/26 whole, 0/4 close-ups flagged, recall 7/10 (3/3 texts, 4/7
// subjects). Asserted: those figures as floors (model-set-clipped.ts). The misses: l08-b, a
// seaplane's nose off the right over a lake (its strip on the frame under the floor); s04-a, a
// line-art trumpet whose bell rim runs off the right (the figure runs 5 % past; the rim, seen
// edge on, is too slender to be read as a body); s08-a, a line-art seahorse whose tail runs
// off the bottom (read as a close-up: it fills 69 % of the height from the bottom edge). The
// open-line reading added after the run (frame-strokes.ts openLinesCut) changed none of them;
// session 42's readings catch all three (not blind): a slender outline lying along the side it
// passes is a body (the rim), a line-art close-up must widen to the bottom edge (the seahorse
// narrows), and scenery painted on a subject of its part no longer splits its run (the
// seaplane's stripe). Asserted now: all 10 cuts.
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_F_DIR, modelFScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, sixth set',
  dir: MODEL_F_DIR,
  set: 'model-f',
  scenes: modelFScenes,
  counts: { whole: 26, cut: 10, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 10,
  textsCaught: 3,
});
