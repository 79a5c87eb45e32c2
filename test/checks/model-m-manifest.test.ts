// The thirteenth model-written scene set (test/fixtures/scenes-model-m, issue 40 — blind, to
// measure how `clipped` generalises once model-j and model-k are tuned on). Written at the same
// time as model-l by another writer on disjoint themes (nature, animals, food, crafts, weather,
// myth and history), a third of it line art: the shared suite in model-set-manifest.ts.
// No rendering here; nothing runs a check over it in the fast tests.

import { MODEL_M_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'thirteenth set',
  dir: MODEL_M_DIR,
  set: 'model-m',
  earlier: setsBefore(MODEL_M_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
