// Issue 40 item 2, held out: `clipped` over the second set of public-domain openclipart
// scenes (test/fixtures/scenes-holdout, holdout-scenes.ts) that nobody tunes on — 23 scenes
// and 71 crops of them, 52 cut and 42 not cut, each labelled by eye on its render before the
// check ran on it. Real renders through the isolated pool; the per-kind tables are printed so
// a change to the rule shows its held-out figures in the log.
// Asserted: only what holds today and is a goal — every item renders, and no tiling is
// flagged (the fireman close-up is flagged since the third pass on the rule, 51ab424, so
// close-ups are not asserted). Today's misses and false alarms are NOT expectations here:
// they are recorded, with why, in docs/artifact-and-checks.md (issue 40), and a rule that
// fixes them must not need this file changed. (Well-formedness of the truth file is checked
// without rendering, in holdout-manifest.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { holdoutScenes } from './holdout-scenes.ts';
import { evaluateAndPrint, type SceneOutcome } from './scene-bench.ts';

let outcomes: SceneOutcome[];

beforeAll(async () => {
  outcomes = await evaluateAndPrint('held-out real scenes', holdoutScenes());
}, 600_000);

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');

describe('clipped on held-out real scenes', () => {
  it('renders every held-out item', () => {
    expect(outcomes.length).toBe(94);
    expect(ids(outcomes.filter((o) => o.flags.has('renders')))).toBe('');
  });

  it('flags no tiling', () => {
    const patterns = outcomes.filter((o) => o.scene.kind === 'pattern');
    expect(patterns.length).toBe(11);
    expect(ids(patterns.filter((o) => o.flags.has('clipped')))).toBe('');
  });
});
