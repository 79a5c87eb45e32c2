// The twelfth model-written scene set (test/fixtures/scenes-model-l, issue 40 — blind, to
// measure how `clipped` generalises once model-j and model-k are tuned on). Written at the same
// time as model-m by another writer on disjoint themes (city life, sport, music, transport,
// architecture and diagrams), a third of it line art: the shared suite in model-set-manifest.ts.
// No rendering here; nothing runs a check over it in the fast tests.

import { MODEL_L_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'twelfth set',
  dir: MODEL_L_DIR,
  set: 'model-l',
  earlier: setsBefore(MODEL_L_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
