// The frame reading's frame is the painted canvas (issue 40): a non-square viewBox is fitted
// onto the square canvas per preserveAspectRatio and what is drawn beyond it shows in the
// margins, so a subject cut by the viewBox but drawn whole beyond it is not cut in the
// picture, and one cut by the canvas's edge out in the margin is. Read on the sanitiser's
// parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { paintedBox, parseAspectRatio } from './fit.ts';
import { sanitizeSvg } from './sanitize.ts';

const doc = (viewBox: string, body: string, par = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}"${par ? ` preserveAspectRatio="${par}"` : ''}>${body}</svg>`;
const frame = (viewBox: string, body: string, par = '') =>
  sanitizeSvg(doc(viewBox, body, par)).code!.frame!;
// A background over the whole of user space the canvas might show.
const BG = '<rect x="-2000" y="-2000" width="4000" height="4000" fill="#234"/>';
// A subject of varied shapes (≈ 200 × 240 from the origin), as frame-structure.test.ts draws.
const figure = (x: number, y: number) =>
  `<g transform="translate(${x} ${y})"><path d="M20 100 C 20 40 180 40 180 100 L 190 240 L 10 240 Z" fill="#c84"/><circle cx="100" cy="60" r="50" fill="#fc9"/><circle cx="120" cy="50" r="6" fill="#000"/></g>`;
const TALL = '0 0 512 1024'; // 1:2, painted as -256 0 1024 1024 (xMidYMid meet)
const WIDE = '0 0 1024 512'; // 2:1

describe('painted box', () => {
  it('grows the short side to the square canvas per preserveAspectRatio', () => {
    expect(paintedBox({ viewBox: TALL })).toEqual([-256, 0, 1024, 1024]);
    expect(paintedBox({ viewBox: WIDE })).toEqual([0, -256, 1024, 1024]);
    expect(paintedBox({ viewBox: TALL, preserveAspectRatio: 'xMinYMin' })).toEqual([
      0, 0, 1024, 1024,
    ]);
    expect(paintedBox({ viewBox: WIDE, preserveAspectRatio: 'xMaxYMax meet' })).toEqual([
      0, -512, 1024, 1024,
    ]);
    expect(paintedBox({ viewBox: WIDE, preserveAspectRatio: 'xMidYMid slice' })).toEqual([
      256, 0, 512, 512,
    ]);
    expect(paintedBox({ viewBox: WIDE, preserveAspectRatio: 'none' })).toEqual([0, 0, 1024, 512]);
    // No viewBox: 0 0 width height in user units, as fitRoot takes it.
    expect(paintedBox({ width: '2in', height: '1in' })).toEqual([0, -48, 192, 192]);
    // The mapping depends on the output size: left to the caller.
    expect(paintedBox({ width: '200' })).toBeNull();
  });

  it('leaves a square viewBox exactly as it is, whatever the alignment', () => {
    for (const par of ['', 'xMinYMax slice', 'none', 'garbage'])
      expect(paintedBox({ viewBox: '-3.5 7 333.3 333.3', preserveAspectRatio: par })).toEqual([
        -3.5, 7, 333.3, 333.3,
      ]);
  });

  it('reads an unreadable preserveAspectRatio as xMidYMid meet', () => {
    const mid = { none: false, ax: 0.5, ay: 0.5, slice: false };
    expect(parseAspectRatio('xMidYmid')).toEqual(mid);
    expect(parseAspectRatio('xMinYMin bogus')).toEqual(mid);
    expect(parseAspectRatio('defer xMaxYMin slice')).toEqual({
      none: false,
      ax: 1,
      ay: 0,
      slice: true,
    });
  });
});

describe('frame reading on the painted canvas', () => {
  it('does not cut a subject the viewBox cuts but that is drawn whole beyond it (meet)', () => {
    // Across the viewBox's left edge (x 0), whole inside the canvas (x from -256).
    const f = frame(TALL, BG + figure(-100, 400));
    expect(f.cutRun).toBe(0);
    expect(f.subjectRun).toBe(0);
  });

  it('cuts a subject the canvas edge cuts out in the margin (meet)', () => {
    // Wholly outside the viewBox, across the canvas's left edge at x -256.
    expect(frame(TALL, BG + figure(-350, 400)).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('puts the spare room on one side for xMinYMin', () => {
    // The canvas's left edge is the viewBox's; its right edge lies 512 beyond the viewBox's.
    expect(frame(TALL, BG + figure(-100, 400), 'xMinYMin').cutRun).toBeGreaterThanOrEqual(MIN);
    expect(frame(TALL, BG + figure(420, 400), 'xMinYMin').cutRun).toBe(0);
  });

  it('cuts what slice leaves off the canvas inside the viewBox', () => {
    // Whole inside the viewBox, across the canvas's left edge at x 256.
    expect(frame(WIDE, BG + figure(200, 150), 'xMidYMid slice').cutRun).toBeGreaterThanOrEqual(MIN);
    expect(frame(WIDE, BG + figure(200, 150)).cutRun).toBe(0);
  });

  it('keeps a backdrop filling a 4:3 viewBox a backdrop, not a subject cut by the canvas', () => {
    // A chart's 800 × 600: a background, a sky and a ground drawn to the viewBox, which the
    // canvas shows with empty margins above and below. They still span the canvas's width.
    const bands =
      '<rect width="800" height="600" fill="#eee"/><rect width="800" height="300" fill="#8cf"/><rect y="300" width="800" height="300" fill="#6a4"/>';
    const f = frame('0 0 800 600', bands + figure(300, 180));
    expect(f.subjectRun).toBe(0);
    expect(f.cutRun).toBe(0);
    // Three quarters of each side; the top and bottom edges lie in the empty margins.
    expect(f.owners.band).toBeCloseTo(0.375, 2);
  });

  it('keeps bands drawn to a near-square viewBox bands where the canvas adds thin margins', () => {
    // 560 × 580: the canvas shows 10 units of empty margin at each side (1.7 %), so the sky
    // and the sand meet the viewBox's sides, not the canvas's; the sand runs past the bottom.
    const bands =
      '<rect width="560" height="300" fill="#8cf"/><path d="M0 290 L560 290 L560 620 L0 620 Z" fill="#db8"/>';
    const f = frame('0 0 560 580', bands + figure(180, 160));
    expect(f.subjectRun).toBe(0);
    expect(f.cutRun).toBe(0);
  });

  it('takes the viewBox itself as the frame for none', () => {
    // Cannot fail before the change: with `none` the canvas shows the viewBox alone.
    expect(frame(WIDE, BG + figure(-100, 150), 'none').cutRun).toBeGreaterThanOrEqual(MIN);
    expect(frame(WIDE, BG + figure(400, 150), 'none').cutRun).toBe(0);
  });

  it('judges text against the canvas, not the viewBox', () => {
    // Straddling the viewBox's bottom edge, inside the canvas: not off the frame.
    const below = '<text x="300" y="520" font-size="16">drawn in the margin</text>';
    expect(frame(WIDE, BG + below).textsOff).toEqual([]);
    // Running past the canvas's right edge (the viewBox's too): off.
    const right = '<text x="900" y="200" font-size="40">running off the side</text>';
    expect(frame(WIDE, BG + right).textsOff).toEqual(['running off the side']);
  });

  it('finds no close-up standing on a wide viewBox bottom above the canvas bottom', () => {
    // A bust drawn up to the bottom of a 512 × 416 viewBox (y 96–512) ends 48 units above
    // the canvas's bottom (y 48–560): in the picture it stands on nothing.
    const bust =
      '<g><path d="M96 512 C 110 400 180 380 220 370 L 220 300 L 292 300 L 292 370 C 332 380 402 400 416 512 Z" fill="#ccb"/><circle cx="256" cy="220" r="95" fill="#ccb"/><circle cx="290" cy="210" r="10" fill="#000"/></g>';
    const bg = '<rect y="96" width="512" height="416" fill="#234"/>';
    expect(frame('0 96 512 416', bg + bust).closeUpShape).toBeNull();
    // The same bust on the square viewBox standing on its bottom is one.
    expect(frame('0 0 512 512', bg + bust).closeUpShape).toBe('bust');
  });
});
