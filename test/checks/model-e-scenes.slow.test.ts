// Issue 40, the third blind measure (7 Dec 2026, session 40): `clipped` (and clutter,
// output_tokens with each item's prompt) over the fifth model-written set
// (test/fixtures/scenes-model-e, 40 answers to 20 prompts new to the first four sets, 10 of
// them line art), labelled by eye on the renders before any check ran on them, written apart
// from the rule and kept out of tuning. Its helper read no rule source but did see the ten
// newest commit subjects, which name the disc reading (its README says so). Run once, on the
// rule frozen at 230678a (the disc reading, frame-discs.ts, included): FP 1/25 whole, 0/4
// close-ups flagged, recall 9/11 (3/3 texts, 6/8 subjects). The false alarm was l10-a, a gas
// giant whose centre sits 30 units inside the bottom edge, so 57 % of it shows: outside the
// disc reading then. Session 41 widened that reading to very big discs centred up to a quarter
// of their radius inside a side (frame-discs.ts, tuned on the composed backdrop-disc-inside
// family), so this set is no longer blind for that class; and read line-art figures cut
// through their open lines (frame-strokes.ts openLinesCut), which catches l07-b. Asserted: no
// whole scene flagged (the shared suite in model-set-clipped.ts), no close-up flagged,
// all 11 cuts (s05-b, a flamingo whose head runs off the top, since session 42 read a filled
// figure cut through a thick stroked limb, its neck: frame-strokes.ts; not blind), every text
// cut caught and named as text.
// docs/artifact-and-checks.md (issue 40) has the readings.
import { MODEL_E_DIR, modelEScenes } from './model-scenes.ts';
import { describeClippedOnModelSet } from './model-set-clipped.ts';

describeClippedOnModelSet({
  title: 'model-written scenes, fifth set',
  dir: MODEL_E_DIR,
  set: 'model-e',
  scenes: modelEScenes,
  counts: { whole: 25, cut: 11, closeUps: 4, texts: 3 },
  closeUpsFlagged: 0,
  wholeFlagged: 0,
  cutsCaught: 11,
  textsCaught: 3,
});
