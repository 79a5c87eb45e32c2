// The ninth model-written scene set (test/fixtures/scenes-model-i, issue 40 — blind, to measure
// how `clipped` generalises once the first eight sets are used for tuning; a quarter of its
// answers are line art, and several filled ones have stroked details) has the shape of the
// issue's outside test at two thirds of the size (8 short prompts, 12 long scene specs) and
// repeats no prompt of the first eight sets: the shared suite in model-set-manifest.ts. Its
// answers are 0.8 to 6 KB (the smallest, s01-b, 995 bytes). No rendering here; nothing runs a
// check over it in the fast tests.

import { MODEL_I_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'ninth set',
  dir: MODEL_I_DIR,
  set: 'model-i',
  earlier: setsBefore(MODEL_I_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
