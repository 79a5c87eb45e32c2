// The second model-written scene set (test/fixtures/scenes-model-b, issue 40 — the blind measure
// until 7 Dec 2026, tuned on since) has the shape of the outside test and repeats no prompt of the first set:
// the shared suite in model-set-manifest.ts. The minimal answers are about a kilobyte (s02-b:
// 998 bytes), the largest under 5 KB. No rendering here (model-b-scenes.slow.test.ts renders
// them).

import { MODEL_B_DIR, MODEL_DIR } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'second set',
  dir: MODEL_B_DIR,
  set: 'model-b',
  earlier: [MODEL_DIR],
  bytes: [900, 12_000],
});
