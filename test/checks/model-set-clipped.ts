// `clipped` (and clutter, output_tokens with each item's prompt) over one model-written scene
// set (issue 40), as one parameterised suite for the slow tests of every set: real renders
// through the isolated pool, the per-kind tables printed so a change to the rule shows its
// figures in the log. Asserted: the figures given as floors, so a rule that does better needs
// no change and one that does worse fails — every item renders; at most so many close-ups and
// whole scenes flagged; at least so many cuts caught, and every text cut caught named as text
// (`detail.textsOff`) up to its own floor; no `clutter` and no `output_tokens` flag on these
// complete, unpadded answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { modelSceneManifest } from './model-scenes.ts';
import { type BenchScene, evaluateAndPrint, type SceneOutcome } from './scene-bench.ts';

export interface ModelSetFloors {
  /** The set's title in the printed tables and the suite's name. */
  title: string;
  /** The set's folder and its ids' prefix (`model-c` for `model-c:l01-a.svg`). */
  dir: string;
  set: string;
  scenes: () => BenchScene[];
  /** How many items of each truth the set holds. */
  counts: { whole: number; cut: number; closeUps: number; texts: number };
  /** Floors: the most close-ups and whole scenes flagged, the fewest cuts and text cuts caught. */
  closeUpsFlagged: number;
  wholeFlagged: number;
  cutsCaught: number;
  textsCaught: number;
}

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');

export function describeClippedOnModelSet(f: ModelSetFloors): void {
  let outcomes: SceneOutcome[];
  beforeAll(async () => {
    outcomes = await evaluateAndPrint(f.title, f.scenes());
  }, 600_000);
  const flagged = (name: string) => outcomes.filter((o) => o.flags.has(name));

  describe(`clipped on ${f.title}`, () => {
    it('renders every item', () => {
      expect(outcomes.length).toBe(f.counts.whole + f.counts.cut + f.counts.closeUps);
      expect(ids(flagged('renders'))).toBe('');
    });

    it(`flags at most ${f.closeUpsFlagged} of the ${f.counts.closeUps} deliberate close-ups`, () => {
      const closeUps = outcomes.filter((o) => o.scene.closeUp);
      expect(closeUps.length).toBe(f.counts.closeUps);
      const hit = closeUps.filter((o) => o.flags.has('clipped'));
      expect(hit.length, ids(hit)).toBeLessThanOrEqual(f.closeUpsFlagged);
    });

    it(`flags at most ${f.wholeFlagged} of ${f.counts.whole} whole scenes, catches at least ${f.cutsCaught} of ${f.counts.cut} cuts`, () => {
      const whole = outcomes.filter((o) => !o.scene.cut && !o.scene.closeUp);
      const cut = outcomes.filter((o) => o.scene.cut);
      expect([whole.length, cut.length]).toEqual([f.counts.whole, f.counts.cut]);
      const fp = whole.filter((o) => o.flags.has('clipped'));
      expect(fp.length, ids(fp)).toBeLessThanOrEqual(f.wholeFlagged);
      const missed = cut.filter((o) => !o.flags.has('clipped'));
      expect(cut.length - missed.length, ids(missed)).toBeGreaterThanOrEqual(f.cutsCaught);
    });

    it(`catches at least ${f.textsCaught} of the ${f.counts.texts} texts running off the frame, named as text`, () => {
      const files = modelSceneManifest(f.dir).files;
      const text = outcomes.filter(
        (o) => files[o.scene.id.slice(f.set.length + 1)]?.what === 'text',
      );
      expect(text.length).toBe(f.counts.texts);
      const caught = text.filter((o) => {
        const d = o.checks.find((c) => c.name === 'clipped')?.detail;
        return o.flags.has('clipped') && Array.isArray(d?.textsOff) && d.textsOff.length > 0;
      });
      expect(caught.length, ids(text.filter((o) => !caught.includes(o)))).toBeGreaterThanOrEqual(
        f.textsCaught,
      );
    });

    it('raises no clutter or output_tokens flag on complete, unpadded answers', () => {
      expect(ids(flagged('clutter'))).toBe('');
      expect(ids(flagged('output_tokens'))).toBe('');
    });
  });
}
