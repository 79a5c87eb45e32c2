// Issue 40, the second blind measure (7 Dec 2026, session 39): `clipped` (and clutter,
// output_tokens with each item's prompt) over the fourth model-written set
// (test/fixtures/scenes-model-d, 40 answers to 20 prompts new to the first three sets, 11 of
// them line art), labelled by eye on the renders before any check ran on them, written apart
// from the rule and kept out of tuning. Run once, on the rule with h38stroke's line-art reading
// and the session-39 reading of ungrouped strokes, both committed before the set was first
// run: FP 1/25 whole, 0/4 close-ups flagged, recall 11/11 (the three line-art cuts among them).
// Asserted: those figures as floors (the shared suite in model-set-clipped.ts) — no whole
// scene of 25 (the blind run's one, s08-a, the Earth's disc cut by the bottom-right corner
// under a whole astronaut, is read as backdrop since session 40's disc reading,
// frame-discs.ts: tuned on a composed family, not here, but its class chosen from this set,
// so 0/25 is not a blind figure), no close-up flagged, all 11 cuts, every text cut caught and named as text.
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_D_DIR, modelDScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, fourth set',
  dir: MODEL_D_DIR,
  set: 'model-d',
  scenes: modelDScenes,
  counts: { whole: 25, cut: 11, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 11,
  textsCaught: 3,
});
