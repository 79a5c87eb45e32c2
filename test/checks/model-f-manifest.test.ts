// The sixth model-written scene set (test/fixtures/scenes-model-f, issue 40 — blind, to measure
// how `clipped` generalises once the first five sets are used for tuning; about a quarter of
// its answers are line art) has the shape of the outside test at two thirds of the size
// (8 short prompts, 12 long scene specs) and repeats no prompt of the first five sets: the
// shared suite in model-set-manifest.ts. Its answers are 0.8 to 6 KB (the smallest, s06-a,
// 825 bytes). No rendering here; nothing runs a check over it in the fast tests.

import { MODEL_F_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'sixth set',
  dir: MODEL_F_DIR,
  set: 'model-f',
  earlier: setsBefore(MODEL_F_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
