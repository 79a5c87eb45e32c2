// The seventh model-written scene set (test/fixtures/scenes-model-g, issue 40 — blind, to measure
// how `clipped` generalises once the first six sets are used for tuning; half of its answers are
// line art) has the shape of the issue's outside test at two thirds of the size (8 short
// prompts, 12 long scene specs) and repeats no prompt of the first six sets: the shared suite in
// model-set-manifest.ts. Its answers are 0.8 to 6 KB (the smallest, s05-a, 864 bytes). No
// rendering here; nothing runs a check over it in the fast tests.

import { MODEL_G_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'seventh set',
  dir: MODEL_G_DIR,
  set: 'model-g',
  earlier: setsBefore(MODEL_G_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
