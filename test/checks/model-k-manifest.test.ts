// The eleventh model-written scene set (test/fixtures/scenes-model-k, issue 40 — blind, to
// measure how `clipped` generalises once the first nine sets are used for tuning; a third of
// its answers are line art, several filled ones have stroked details, and many subjects stand
// in scenery) has the shape of the outside test at two thirds of the size (8 short
// prompts, 12 long scene specs) and repeats no prompt of the sets before it: the shared suite in
// model-set-manifest.ts. Its answers are 0.8 to 6 KB (the smallest, s01-b, 1031 bytes). No
// rendering here; nothing runs a check over it in the fast tests.
// It was written at the same time as model-j by a helper who could not see model-j, so it is
// held to the nine sets before both: two of its short prompts are model-j's word for word
// ("an accordion", "a bulldozer on a construction site"), answered by other drawings.

import { MODEL_J_DIR, MODEL_K_DIR, setsBefore } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'eleventh set',
  dir: MODEL_K_DIR,
  set: 'model-k',
  earlier: setsBefore(MODEL_J_DIR),
  bytes: [800, 6_000],
  prompts: { short: 8, long: 12 },
});
