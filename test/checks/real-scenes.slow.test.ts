// Issue 40 item 2 on real drawings: `clipped` over the public-domain openclipart scenes of
// test/fixtures/scenes (real-scenes.ts), labelled by eye on the canvas picture a judge sees
// (the renderer paints beyond a non-square viewBox into the square canvas's margins, so the
// labels describe the canvas; 13 cut crops were made square so the picture is the crop: the
// fixtures' README) — the 34 vendored scenes and 60 crops of them with known truth: 45 cut
// (44 cropped through a subject's body, one cut as its author drew it) and 49 not cut (33
// whole scenes and close-ups, 14 crops through sky, ground, backdrop, pattern or texture
// only, 2 portrait-like crops). Real renders through the isolated pool; the per-kind tables
// are printed.
// Asserted: no vendored scene is flagged, the crops that are not cut raise no flag beyond
// the known false alarms (each named below with why), the cuts caught when measured stay
// caught (38/45, short of the 90 % goal: the misses are named below and in
// docs/artifact-and-checks.md), no complete real drawing is flagged by output_tokens, and
// the close-ups reported `cut: "close_up"` are the ones read when measured (1 of 12), with
// no whole or cut item reported so beyond the known one.
import { beforeAll, describe, expect, it } from 'vitest';
import { realScenes } from './real-scenes.ts';
import { evaluateAndPrint, type SceneOutcome } from './scene-bench.ts';

let outcomes: SceneOutcome[];

beforeAll(async () => {
  outcomes = await evaluateAndPrint('real scenes', realScenes());
}, 600_000);

const ids = (xs: SceneOutcome[]) => xs.map((o) => o.item.id).join(', ');

// Cuts `clipped` catches today (a subject sliced through its body, with its own fill),
// measured on the canvas labels with the frame reading on the painted canvas (6 Dec 2026).
// The four misses, with what owns the cut edge
// runs (detail.owners): eyeball--cut (one radial-gradient square: background), fireworks--cut-r (thin streaks,
// 0.4 % of the edge cut), fireworks--cut (the burst's streaks cross the canvas's left edge
// apart: no run reaches the minimum once the frame is the canvas) and menu-1--cut-bottom (read
// as a close-up, below). grapes--cut-top (the bunch's nested layers read as background and
// bands) is caught since 7 Dec 2026: its layers fill no corner of the frame
// (frame-silhouettes.ts); big-house--cut-r (its grey wall a bare <rect> sliced through the top
// and right, read as architecture) since its wall no longer stands on the ground edge;
// bulldog-puppy--cut-r (its group runs far past the right edge and meets the top within a hair:
// read as scenery reaching down from the top) since a part sliced by a third of itself is cut
// (frame-shapes.ts's SLICED_DEEP). Two of them were caught on the viewBox
// crops (before they were made square); dragonfly--cut-l and eye-chart--cut were missed.
const CAUGHT = [
  'ayers-rock--cut',
  'ayers-rock--cut-r',
  'baby-tux--cut',
  'baby-tux--cut-r',
  'baby-tux--cut-top',
  'big-house--cut-r',
  'bison--cut',
  'bison--cut-l',
  'bison--cut-top',
  'bulldog-puppy--cut',
  'bulldog-puppy--cut-r',
  'bunny--cut',
  'bunny--cut-l',
  'bunny--cut-r',
  'bunny--cut-top',
  'chess-game--cut',
  'dragonfly--cut',
  'dragonfly--cut-l',
  'eye-chart--cut',
  'eye-chart--cut-top',
  'grapes--cut',
  'grapes--cut-r',
  'grapes--cut-top',
  'ice-water--cut',
  'ice-water--cut-bottom',
  'ice-water--cut-r',
  'ice-water--cut-top',
  'menu-1--cut',
  'menu-1--cut-r',
  'menu-6--cut',
  'menu-6--cut-r',
  'menu-6--cut-top',
  'park--cut',
  'park--cut-r',
  'place-setting--cut',
  'place-setting--cut-bottom',
  'place-setting--cut-r',
  'river-landscape',
  'river-landscape--cut',
  'sunflower--cut',
  'water-tower--cut-top',
];

// Known false alarms on crops that are not cut (main raised five; the cloud streaks of a
// trimmed sky and the foam crest of a trimmed sea are now read as the scenery they are
// drawn on; the water tower's shaft running off the bottom under its tank is now joined to
// the tank as one figure, a close-up): wood-grain shapes sliced by cropping the texture
// (nested rings, each drawn on the one before, read as a subject with its details). The
// water tower's top crop, flagged while the sky its wide viewBox slices read as a close-up
// on the taller painted canvas (holding the tank and the shaft apart), is a close-up again
// since such a backdrop stays background (frame-backdrops.ts).
const KNOWN_FP = ['wood--trim'];

const name = (o: SceneOutcome) => o.item.id.replace(/^real:|\.svg$/g, '');

describe('clipped on real full-bleed scenes', () => {
  it('flags no vendored whole scene or close-up, and no other crop that is not cut', () => {
    const clean = outcomes.filter((o) => !o.scene.cut);
    expect(clean.length).toBe(49);
    const vendored = clean.filter((o) => !name(o).includes('--'));
    expect(vendored.length).toBe(33);
    expect(ids(vendored.filter((o) => o.flags.has('clipped')))).toBe('');
    const unknown = clean.filter((o) => o.flags.has('clipped') && !KNOWN_FP.includes(name(o)));
    expect(ids(unknown)).toBe('');
  });

  it('catches the cuts it caught when measured (41 of 45)', () => {
    const cut = outcomes.filter((o) => o.scene.cut);
    expect(cut.length).toBe(45);
    const missed = outcomes.filter((o) => CAUGHT.includes(name(o)) && !o.flags.has('clipped'));
    expect(ids(missed)).toBe('');
  });

  it('reports the close-ups it reads as close_up, and no whole or cut item but the known one', () => {
    const reported = (o: SceneOutcome) =>
      o.checks.find((c) => c.name === 'clipped')?.detail?.cut === 'close_up';
    const close = outcomes.filter((o) => o.scene.closeUp);
    expect(close.length).toBe(12);
    // The puppy's head crop fills the frame from the bottom it runs past; the water tower's
    // top crop is its tank and shaft running off the bottom over a sky the viewBox slices.
    // Lost when the frame became the painted canvas: the ibex (its neck ends at the scene's
    // edge, which is inside the square canvas). The other nine are read as
    // nothing (traced portraits whose layers are all backdrop to the structure, line art
    // meeting the edge in a thread, a stem, a bloom short of the edge): known misses.
    expect(ids(close.filter(reported)).replace(/real:|\.svg/g, '')).toBe(
      'bulldog-puppy--head, water-tower--top',
    );
    // A plate sliced by the bottom edge above its middle widens toward the edge like a
    // bust: the one item wrongly reported a close-up (and a missed cut).
    const wrong = outcomes.filter((o) => !o.scene.closeUp && reported(o));
    expect(ids(wrong).replace(/real:|\.svg/g, '')).toBe('menu-1--cut-bottom');
  });

  it('does not flag a complete real drawing as truncated or padded', () => {
    expect(ids(outcomes.filter((o) => o.flags.has('output_tokens')))).toBe('');
  });
});
