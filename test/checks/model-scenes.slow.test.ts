// Issue 40: `clipped` (and clutter, output_tokens, text_in_image with each item's prompt) over
// the 60 model-written scenes (test/fixtures/scenes-model, model-scenes.ts), labelled by eye on
// their renders before any check ran on them. Real renders through the isolated pool; the
// per-kind tables are printed so a change to the rule shows its figures on this set in the log.
// Asserted: today's figures as floors, so a rule that does better needs no change here and one
// that does worse fails — every item renders; no deliberate close-up is flagged; no whole
// scene flagged (the pines framing l14-a and s07-a were until h38tune, 7 Dec 2026: one pine
// placed with <use> at several sides is scenery, frame-motifs.ts); at least 17 of the 19 cuts
// caught (10 before text was laid out in the pinned fonts, text-off-frame.ts: the six titles
// and labels running off the frame are now caught, and a vase sliced by the top since
// top-slice.ts; the two misses are subjects); every
// answer labelled a text cut flagged with that text in `detail.textsOff`; no
// `clutter` and no `output_tokens` flag on these complete, unpadded answers. The misses and
// false alarms with their readings are in docs/artifact-and-checks.md (issue 40). (The truth
// file's shape is checked without rendering in model-manifest.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { modelSceneManifest, modelScenes } from './model-scenes.ts';
import { evaluateAndPrint, type SceneOutcome } from './scene-bench.ts';

let outcomes: SceneOutcome[];

beforeAll(async () => {
  outcomes = await evaluateAndPrint('model-written scenes', modelScenes());
}, 600_000);

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');
const flagged = (name: string) => outcomes.filter((o) => o.flags.has(name));

describe('clipped on model-written scenes', () => {
  it('renders every item', () => {
    expect(outcomes.length).toBe(60);
    expect(ids(flagged('renders'))).toBe('');
  });

  it('flags no deliberate close-up', () => {
    const closeUps = outcomes.filter((o) => o.scene.closeUp);
    expect(closeUps.length).toBe(4);
    expect(ids(closeUps.filter((o) => o.flags.has('clipped')))).toBe('');
  });

  it('does no worse than today: no whole scene of 37 flagged, at least 17 of 19 cuts caught', () => {
    const whole = outcomes.filter((o) => !o.scene.cut && !o.scene.closeUp);
    const cut = outcomes.filter((o) => o.scene.cut);
    expect(whole.length + cut.length).toBe(56);
    const fp = whole.filter((o) => o.flags.has('clipped'));
    expect(fp.length, ids(fp)).toBe(0);
    expect(cut.filter((o) => o.flags.has('clipped')).length).toBeGreaterThanOrEqual(17);
  });

  it('catches every title or label labelled as running off the frame, and says it was text', () => {
    const files = modelSceneManifest().files;
    const text = outcomes.filter((o) => files[o.scene.id.slice('model:'.length)]?.what === 'text');
    expect(text.length).toBe(6);
    const missed = text.filter((o) => {
      const d = o.checks.find((c) => c.name === 'clipped')?.detail;
      return !o.flags.has('clipped') || !Array.isArray(d?.textsOff) || d.textsOff.length === 0;
    });
    expect(ids(missed)).toBe('');
  });

  it('raises no clutter or output_tokens flag on complete, unpadded answers', () => {
    expect(ids(flagged('clutter'))).toBe('');
    expect(ids(flagged('output_tokens'))).toBe('');
  });
});
