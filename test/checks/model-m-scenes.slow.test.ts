// Issue 40, the eleventh blind measure (7 Dec 2026, session 44): `clipped` (and clutter,
// output_tokens with each item's prompt) over the thirteenth model-written set
// (test/fixtures/scenes-model-m, 40 answers to 20 prompts new to the first eleven sets on
// nature, animals, food, crafts, weather, myth and history, a third of them line art), written
// beside model-l on disjoint themes and labelled by eye on the renders before any check ran, by
// a helper who read no rule source, docs or commit history. Run once, on the rule of 44cc493
// (a1960cf's readings): FP 1/24 whole, 0/4 close-ups flagged, recall 10/12 (3/3 texts). The
// false alarm, l01-b, a mushroom diagram whose six labels lie inside the frame: its sheet's
// `font: 600 16px …` was read as 600 px text (text-style.ts now takes the unitless 600 as the
// weight, so it is no longer flagged: not blind for that). The misses: s04-a, a longship whose
// bow runs an eighth off the right edge (its crossing is a thin tapering hull, 6 units), and
// s08-b, a dragon scaled 2.3 whose head leaves the top while its body and hoard run off the
// bottom (read as scenery). Asserted: those figures as bounds, the whole scenes at today's 0
// (model-set-clipped.ts).
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_M_DIR, modelMScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, thirteenth set',
  dir: MODEL_M_DIR,
  set: 'model-m',
  scenes: modelMScenes,
  counts: { whole: 24, cut: 12, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 10,
  textsCaught: 3,
});
