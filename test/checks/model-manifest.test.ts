// The first model-written scene set (test/fixtures/scenes-model, issue 40) is well formed and
// has the shape of the outside test: the shared suite in model-set-manifest.ts (10
// short prompts and 20 long scene specs, two answers to each, every item labelled, about a
// third wrong on purpose). Its answers are 1 to 12 KB. No rendering here
// (model-scenes.slow.test.ts renders them).
import { MODEL_DIR } from './model-scenes.ts';
import { describeModelSet } from './model-set-manifest.ts';

describeModelSet({
  name: 'first set',
  dir: MODEL_DIR,
  set: 'model',
  earlier: [],
  bytes: [1_000, 12_000],
});
