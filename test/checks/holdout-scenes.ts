// The held-out real scenes (issue 40 item 2): a second set of public-domain openclipart
// scenes in test/fixtures/scenes-holdout, same layout as test/fixtures/scenes (MANIFEST.json
// with `files` and in-memory `cuts`, read by real-scenes.ts), labelled by eye on their renders
// before the check was run on them. Nobody tunes `clipped` on it: it measures how far the
// figures on the first set, which the rule was tuned on over several rounds, carry to scenes
// the rule has not seen. Read by scene-bench.ts (`holdout`) and holdout-scenes.slow.test.ts.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RealSceneManifest, realSceneManifest, realScenes } from './real-scenes.ts';
import type { BenchScene } from './scene-bench.ts';

export const HOLDOUT_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '../fixtures/scenes-holdout',
);

export function holdoutManifest(): RealSceneManifest {
  return realSceneManifest(HOLDOUT_DIR);
}

/** Every held-out scene (the vendored files, then the crops made from them), ids `holdout:`. */
export function holdoutScenes(): BenchScene[] {
  return realScenes(HOLDOUT_DIR, 'holdout');
}
