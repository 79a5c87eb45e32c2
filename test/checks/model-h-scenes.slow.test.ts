// Issue 40, the sixth blind measure (7 Dec 2026, session 42): `clipped` (and clutter,
// output_tokens with each item's prompt) over the eighth model-written set
// (test/fixtures/scenes-model-h, 40 answers to 20 prompts new to the first seven sets, 13 of
// them line art and about a dozen filled bodies with stroked limbs), labelled by eye on the
// renders before any check ran on them, written apart from the rule. Its helper read no rule
// source, docs or commit message; it saw the composed families' names in scene-bench.ts only
// after the labels were committed (its README says so). Run once, on the rule frozen at
// 7d23fa2 (session 42's line-art, limb, stripe and macro readings included): FP 0/25 whole,
// 0/4 close-ups flagged, recall 10/11 (3/3 texts, 7/8 subjects). Asserted: those figures as
// floors (model-set-clipped.ts). The miss: l05-b, a combine harvester whose header runs off the
// right and a wheel off the bottom, its part read as scenery standing in the field.
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_H_DIR, modelHScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, eighth set',
  dir: MODEL_H_DIR,
  set: 'model-h',
  scenes: modelHScenes,
  counts: { whole: 25, cut: 11, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 10,
  textsCaught: 3,
});
