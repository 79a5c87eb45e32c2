// Issue 40, the seventh blind measure (7 Dec 2026, session 42): `clipped` (and clutter,
// output_tokens with each item's prompt) over the ninth model-written set
// (test/fixtures/scenes-model-i, 40 answers to 20 prompts new to the first eight sets, 10 of
// them line art), labelled by eye on the renders before any check ran on them, written apart
// from the rule. Its helper read no rule source, docs or commit message; it saw the composed
// families' names in scene-bench.ts only after the labels were committed (its README says
// so). Run once, on the rule of 9ffc8a2 (7d23fa2's, refactored only): FP 0/25 whole, 1/4
// close-ups flagged, recall 10/11 (3/3 texts, 7/8 subjects). Asserted: those figures as
// floors (model-set-clipped.ts). The miss: l07-b, a manta ray running a fifth off the bottom,
// whose wingtip ends 2 units short of the right edge: the part "meets" that side and reaches
// 91 % across from it, so it reads as scenery filling the picture from the side (reachClass).
// The flagged close-up: l11-a, a charcuterie board from above, its meats running off three
// edges (cut: subject on the top). After the run, session 42 read a box stopping a hair short
// of a side while sliced well through another as a subject, not scenery (reachClass): the
// manta is caught since (not blind), and the floor is all 11 cuts.
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_I_DIR, modelIScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, ninth set',
  dir: MODEL_I_DIR,
  set: 'model-i',
  scenes: modelIScenes,
  counts: { whole: 25, cut: 11, closeUps: 4, texts: 3 },
  closeUpsFlagged: 1,
  wholeFlagged: 0,
  cutsCaught: 11,
  textsCaught: 3,
});
