// Issue 40, the ninth blind measure (7 Dec 2026, session 43): `clipped` (and clutter,
// output_tokens with each item's prompt) over the eleventh model-written set
// (test/fixtures/scenes-model-k, 40 answers to 20 prompts new to the first nine sets, a
// third of them line art, many subjects standing in scenery), labelled by eye on the renders
// before any check ran on them, written beside the other new set by a helper who read no rule
// source or docs but glanced once at the last commit subjects (its README says so). Run once,
// on the rule of d283ff1 (9e20390's readings): FP 0/25 whole, 0/4 close-ups flagged, recall
// 9/11 (3/3 texts). The misses, both line-art subjects over filled scenery: s03-a (a bulldozer a quarter off
// the left) and s07-b (a heron's head and neck off the top, among stroked reeds).
// After the run h43line read a large figure's small outline as cut where the figure runs past:
// both are caught since (not blind), and the floor is all 11 cuts. Asserted: those figures as
// floors (model-set-clipped.ts).
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_K_DIR, modelKScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, eleventh set',
  dir: MODEL_K_DIR,
  set: 'model-k',
  scenes: modelKScenes,
  counts: { whole: 25, cut: 11, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 11,
  textsCaught: 3,
});
