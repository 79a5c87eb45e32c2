// Issue 40, the tenth blind measure (7 Dec 2026, session 44): `clipped` (and clutter,
// output_tokens with each item's prompt) over the twelfth model-written set
// (test/fixtures/scenes-model-l, 40 answers to 20 prompts new to the first eleven sets on city
// life, sport, music, transport, architecture and diagrams, a third of them line art), labelled
// by eye on the renders before any check ran, by a helper who read no rule source, docs or
// commit history. Run once, on the rule of 44cc493 (a1960cf's readings): FP 2/24 whole (l09-b,
// a DJ before LED panels with crowd heads running off the bottom; s02-a, a taxi whose passing
// car and bus run off the sides, labelled scenery), 1/4 close-ups flagged (l04-b, a cyclist's
// portrait whose helmet runs off the top), recall 11/12 (3/3 texts). The miss: l05-b, a
// footballer scaled 2x whose shins and ball run off the bottom, read as a bust (close_up).
// Asserted: those figures as bounds (model-set-clipped.ts).
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_L_DIR, modelLScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, twelfth set',
  dir: MODEL_L_DIR,
  set: 'model-l',
  scenes: modelLScenes,
  counts: { whole: 24, cut: 12, closeUps: 4, texts: 3 },
  closeUpsFlagged: 1,
  wholeFlagged: 2,
  cutsCaught: 11,
  textsCaught: 3,
});
