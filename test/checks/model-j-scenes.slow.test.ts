// Issue 40, the eighth blind measure (7 Dec 2026, session 43): `clipped` (and clutter,
// output_tokens with each item's prompt) over the tenth model-written set
// (test/fixtures/scenes-model-j, 40 answers to 20 prompts new to the first nine sets, a
// third of them line art, many subjects standing in scenery), labelled by eye on the renders
// before any check ran on them, written beside the other new set by a helper who read no rule
// source or docs but glanced once at the last commit subjects (its README says so). Run once,
// on the rule of d283ff1 (9e20390's readings): FP 1/24 whole, 0/4 close-ups flagged, recall
// 8/12 (3/3 texts). The misses, all subjects: s05-b (a line-art toucan's beak tip off the right), s07-a (a hiker's
// shins off the bottom, read as a ground band), l11-b (a dumpling steamer from above two fifths
// off the top, read as a tiling), l07-b (an anglerfish off the bottom and right, read as a
// close-up); the false alarm s08-a (a whole monstera under a light beam).
// After the run h43line read <style> sheets in the frame walk, so s05-b is caught since (not
// blind), and h43fill fitted a <symbol>'s viewBox into its <use> (s08-a no longer flagged)
// and read the hiker's rect shins as cut with him (s07-a): the floors are 10 cuts and no whole
// scene flagged. Asserted: those figures as floors (model-set-clipped.ts).
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_J_DIR, modelJScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, tenth set',
  dir: MODEL_J_DIR,
  set: 'model-j',
  scenes: modelJScenes,
  counts: { whole: 24, cut: 12, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 10,
  textsCaught: 3,
});
