// Discs laid from the frame's edge (issue 40): a planet, a sun or a pool of light drawn as one
// big circle centred on the frame's side or past it is backdrop, with the marks drawn on it; a
// subject cut by the frame is still cut, round or not. Read on the sanitiser's parse, as the
// worker does.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { backdropDiscs, MOST_DISCS, risesFromEdge } from './frame-discs.ts';

const SKY = '<rect width="512" height="512" fill="#0b1030"/>';
const FRAME: [number, number, number, number] = [0, 0, 512, 512];
/** A figure standing whole in the picture: a body and a head, grouped. */
const FIGURE =
  '<g><rect x="200" y="180" width="90" height="120" rx="20" fill="#eef"/><circle cx="245" cy="150" r="40" fill="#eef"/><circle cx="255" cy="150" r="18" fill="#123"/></g>';

describe('discs laid from the frame edge', () => {
  it('reads a planet centred past a corner under a whole figure as backdrop, with its land', () => {
    // The Earth of model-d s08-a: centred below the bottom edge, land drawn on it to the edge.
    const earth = '<circle cx="430" cy="530" r="230" fill="#2a6cc4"/>';
    const land = '<path d="M260 420 Q320 380 360 410 Q400 440 380 480 L300 520 Z" fill="#3f9a4a"/>';
    const f = frameOf(SKY + earth + land + FIGURE);
    expect(f.cutRun).toBeLessThan(MIN);
    // A light disc centred above the top (model-c l07-b), as an ellipse too.
    expect(
      frameOf(`${SKY}<circle cx="250" cy="-20" r="190" fill="#f4e2b0"/>${FIGURE}`).cutRun,
    ).toBe(0);
    expect(
      frameOf(`${SKY}<ellipse cx="-30" cy="260" rx="200" ry="150" fill="#e85"/>${FIGURE}`).cutRun,
    ).toBe(0);
  });

  it('reads a planet drawn as a group, its disc first and its marks inside, as backdrop', () => {
    const planet =
      '<g id="planet"><circle cx="250" cy="560" r="240" fill="#b84"/><ellipse cx="200" cy="420" rx="40" ry="25" fill="#963"/><ellipse cx="330" cy="500" rx="60" ry="30" fill="#963"/></g>';
    expect(frameOf(SKY + planet + FIGURE).cutRun).toBe(0);
    // A group whose other shapes reach out of the disc's box is a figure (a head on a body
    // running off the bottom), not a planet: still cut.
    const figure =
      '<g><circle cx="250" cy="520" r="150" fill="#fc4"/><rect x="60" y="400" width="380" height="300" fill="#36c"/></g>';
    expect(frameOf(SKY + figure + FIGURE).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('counts a line-art figure drawn in front as a figure', () => {
    const sun = '<circle cx="512" cy="0" r="200" fill="#fb3"/>';
    const bike =
      '<g fill="none" stroke="#222" stroke-width="4"><circle cx="170" cy="380" r="60"/><circle cx="340" cy="380" r="60"/><path d="M170 380 L240 300 L340 380 M240 300 L300 300"/></g>';
    expect(frameOf(SKY + sun + bike).cutRun).toBe(0);
    // Drawn before the disc, it is behind it: the disc is the picture's subject, still cut.
    expect(frameOf(SKY + bike + sun).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('still flags a subject cut by the frame in front of such a disc', () => {
    const moon = '<circle cx="0" cy="0" r="220" fill="#dde"/>';
    const cut =
      '<g><rect x="420" y="260" width="150" height="150" rx="20" fill="#c33"/><circle cx="495" cy="240" r="45" fill="#c33"/></g>';
    expect(frameOf(SKY + moon + cut).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('keeps a round subject cut: a face in a group, a small disc, a disc mostly inside', () => {
    // A face pushed off the left with its eyes on it: a figure, not a lone disc.
    const face =
      '<g><circle cx="-10" cy="256" r="140" fill="#fc4"/><circle cx="40" cy="220" r="16" fill="#321"/><circle cx="60" cy="300" r="16" fill="#321"/></g>';
    expect(frameOf(SKY + face).cutRun).toBeGreaterThanOrEqual(MIN);
    // A ball (radius under a fifth of the frame) centred on the right edge.
    expect(
      frameOf(`${SKY}<circle cx="512" cy="300" r="80" fill="#c33"/>`).cutRun,
    ).toBeGreaterThanOrEqual(MIN);
    // A lone big disc centred on a corner, nothing drawn in front: the picture's subject, and
    // the origin mistake (a sun written at 0,0 with no translate) is a cut.
    expect(
      frameOf(`${SKY}<circle cx="0" cy="0" r="200" fill="#fc4"/>`).cutRun,
    ).toBeGreaterThanOrEqual(MIN);
    // A big disc centred inside the frame: most of it shows, the frame slices it.
    expect(
      frameOf(`${SKY}<circle cx="440" cy="256" r="150" fill="#c33"/>`).cutRun,
    ).toBeGreaterThanOrEqual(MIN);
  });

  it('leaves a scatter of big edge discs to the other readings, in bounded time', () => {
    // A hostile drawing of tens of thousands of big discs on the edge with a figure in front:
    // each disc would read every shape after it (≈ 10⁹ steps). More than MOST_DISCS are not
    // planets: none is read as one, and the pass stays linear.
    const disc = (i: number) => ({
      box: [-120, i % 400, 120, (i % 400) + 240] as [number, number, number, number],
      cls: 'subject',
      group: i,
      bare: true,
      round: true as const,
    });
    const figure = {
      box: [200, 200, 300, 300] as typeof FRAME,
      cls: 'subject',
      group: -2,
      bare: false,
    };
    const many = [...Array.from({ length: 30_000 }, (_, i) => disc(i)), figure];
    const t = performance.now();
    expect(backdropDiscs(many, FRAME)).toBe(0);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(many.every((s) => s.cls === 'subject')).toBe(true);
    // At the bound, still planets.
    const few = [...Array.from({ length: MOST_DISCS }, (_, i) => disc(i)), figure];
    expect(backdropDiscs(few, FRAME)).toBe(MOST_DISCS);
    expect(few.slice(0, MOST_DISCS).every((s) => s.cls === 'background')).toBe(true);
  });

  it('measures size and centre on the canvas', () => {
    expect(risesFromEdge([-230, 300, 230, 760], FRAME)).toBe(true);
    // Too small: a fifth of the frame is the least radius.
    expect(risesFromEdge([-90, 200, 90, 380], FRAME)).toBe(false);
    // A disc of radius 130 (a quarter of the frame) centred 20 units inside the left side:
    // more than half shows, and only a disc 60 % of the frame wide may show that much.
    expect(risesFromEdge([-110, 100, 150, 360], FRAME)).toBe(false);
    // Radius 230, centred 40 units (0.17 of it) inside the left side: a planet shown two
    // thirds whole; centred 70 units (0.30 of it) inside, no longer.
    expect(risesFromEdge([-190, 60, 270, 520], FRAME)).toBe(true);
    expect(risesFromEdge([-160, 60, 300, 520], FRAME)).toBe(false);
    // An ellipse counts by its longer axis (320 × 240 is 60 % of the frame wide), and its
    // centre by a quarter of the semi-axis across the side: 36 units inside, not 56.
    expect(risesFromEdge([316, 30, 636, 270], FRAME)).toBe(true);
    expect(risesFromEdge([296, 30, 616, 270], FRAME)).toBe(false);
  });

  it('reads a very big planet centred just inside the edge under a whole figure as backdrop', () => {
    // model-e l10-a (blind, session 40): a gas giant of radius 0.42 of the frame centred 0.14
    // of its radius inside the bottom edge, 57 % of it shown, a station floating above it.
    const giant = '<circle cx="256" cy="484" r="215" fill="#e09f5a"/>';
    const band = '<ellipse cx="300" cy="380" rx="40" ry="18" fill="#b23a48"/>';
    expect(frameOf(SKY + giant + band + FIGURE).cutRun).toBe(0);
    // The same disc alone is the picture's subject, cut by the bottom edge.
    expect(frameOf(SKY + giant + band).cutRun).toBeGreaterThanOrEqual(MIN);
    // On the left side: centred 0.13 of its radius inside it is backdrop; centred a third
    // of its radius inside, figure in front or not, too much shows: the frame cuts it.
    const left = (cx: number) => `<circle cx="${cx}" cy="256" r="215" fill="#e09f5a"/>`;
    expect(frameOf(SKY + left(28) + FIGURE).cutRun).toBe(0);
    expect(frameOf(SKY + left(70) + FIGURE).cutRun).toBeGreaterThanOrEqual(MIN);
    // A disc a quarter of the frame in radius centred just inside: a ball or a clock the
    // frame slices, figure in front or not.
    // A planet taller than the frame (a band by its size) with its craters, as a group.
    const tall =
      '<g><circle cx="500" cy="256" r="262" fill="#a63"/><circle cx="330" cy="300" r="25" fill="#842"/></g>';
    expect(frameOf(SKY + tall + FIGURE).cutRun).toBe(0);
    const ball = '<circle cx="256" cy="490" r="130" fill="#c33"/>';
    expect(frameOf(SKY + ball + FIGURE).cutRun).toBeGreaterThanOrEqual(MIN);
  });
});
