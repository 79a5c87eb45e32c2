// The eighth model-written scene set (test/fixtures/scenes-model-h, issue 40 — blind, to measure
// how `clipped` generalises once the first seven sets are used for tuning; a third of its answers
// are line art, and several filled ones have stroked limbs) has the shape of the outside
// test at two thirds of the size (8 short prompts, 12 long scene specs) and repeats no prompt of
// the first seven sets: the shared suite in model-set-manifest.ts. Its answers are 0.8 to 6 KB
// (the smallest, s06-b, 816 bytes). No rendering here; nothing runs a check over it in the fast
// tests.

import { MODEL_H_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'eighth set',
  dir: MODEL_H_DIR,
  set: 'model-h',
  earlier: setsBefore(MODEL_H_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
