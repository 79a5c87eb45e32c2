// The third model-written scene set (test/fixtures/scenes-model-c, issue 40 — blind, to measure
// how `clipped` generalises once the first two sets are used for tuning) has the shape of the
// issue's outside test and repeats no prompt of the first two sets: the shared suite in
// model-set-manifest.ts. Its answers are 0.8 to 6 KB (the smallest, s10-a, 960 bytes). No
// rendering here; nothing runs a check over it in the fast tests.

import { MODEL_B_DIR, MODEL_C_DIR, MODEL_DIR } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'third set',
  dir: MODEL_C_DIR,
  set: 'model-c',
  earlier: [MODEL_DIR, MODEL_B_DIR],
  bytes: [800, 6_000],
});
