// Issue 40, the fifth blind measure (7 Dec 2026, session 41): `clipped` (and clutter,
// output_tokens with each item's prompt) over the seventh model-written set
// (test/fixtures/scenes-model-g, 40 answers to 20 prompts new to the first six sets, half of
// them line art, chosen to measure line-art subjects blind), labelled by eye on the renders
// before any check ran on them, written apart from the rule. Its helper read no rule source,
// docs or commit message; it saw the composed families' names in scene-bench.ts only after the
// labels were committed (its README says so). Run once, on the rule frozen at e81d3ce (the
// widened disc reading and the open-line reading included): FP 0/26 whole, 0/4 close-ups
// flagged, recall 8/10 (3/3 texts, 5/7 subjects). Asserted: those figures as floors
// (model-set-clipped.ts). The misses, both line art near a threshold: s02-b, a kangaroo whose
// head and ears run off the right (its figure runs 9 % past, the reading asks 10 %); s05-a,
// a drill whose body runs off the left (its closed body is 0.32 as tall as long, under the
// 0.35 that keeps beams and blades out). Session 42 catches both (not blind): a limb is
// judged by its own share past and the figure by 10 % of its extent or 4 % of the frame (the
// kangaroo), and a slender closed stroke is a limb (the drill's body). Asserted now: all 10
// cuts. docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_G_DIR, modelGScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, seventh set',
  dir: MODEL_G_DIR,
  set: 'model-g',
  scenes: modelGScenes,
  counts: { whole: 26, cut: 10, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 10,
  textsCaught: 3,
});
