// Subjects with their own silhouette read as backdrop (frame-silhouettes.ts, issue 40): in a
// tight crop a round figure (a bunch of grapes drawn as nested shading layers) covers most of
// the picture and meets every side, as a backdrop would; it leaves the frame's corners to
// what lies behind it, where a sky, a ground or a wall fills them. Read on the sanitiser's
// parse, as the worker.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { cornersFilled } from './frame-silhouettes.ts';

const BG = '<rect width="512" height="512" fill="#cde"/>';
// A bunch sliced by the top: its outer layer runs 13 % of its height past the top edge and
// meets every side, but no corner of the frame lies inside it; inner shading layers follow.
const BUNCH =
  '<circle cx="256" cy="220" r="300" fill="#536"/><circle cx="256" cy="200" r="250" fill="#748"/><circle cx="300" cy="150" r="60" fill="#a8c"/>';

describe('silhouettes read as backdrop', () => {
  it('reads a round figure sliced by the frame, filling no corner, as a cut subject', () => {
    const f = frameOf(BG + BUNCH);
    expect(f.cutRun).toBeGreaterThanOrEqual(MIN);
    expect(f.owners.background ?? 0).toBeLessThan(0.6);
  });

  it('leaves a hill running past both sides, filling the bottom corners, as backdrop', () => {
    const hill = '<path d="M-100 220 Q256 60 612 220 L612 512 L-100 512 Z" fill="#5a4"/>';
    const f = frameOf(BG + hill);
    expect(f.cutRun).toBe(0);
    expect(f.subjectRun).toBe(0);
  });

  it('leaves a card narrower than the frame (a panel filling its box) as backdrop', () => {
    // A chart's board sliced by the top: a panel laid under what is drawn on it.
    const card = '<path d="M60 -200 L452 -200 L452 512 L60 512 Z" fill="#fff"/>';
    const f = frameOf(`${BG}${card}<circle cx="256" cy="300" r="40" fill="#000"/>`);
    expect(f.cutRun).toBe(0);
  });

  it('leaves a body standing past the bottom edge (a bust) to the close-up reading', () => {
    const bust = '<circle cx="256" cy="300" r="300" fill="#536"/>';
    expect(frameOf(BG + bust).cutRun).toBe(0);
  });

  it('counts the frame corners a shape fills', () => {
    const box = [0, 0, 512, 512] as [number, number, number, number];
    const square = [
      [
        [-10, -10],
        [522, -10],
        [522, 522],
        [-10, 522],
      ],
    ] as [number, number][][];
    expect(
      cornersFilled({ polys: square, box: [-10, -10, 522, 522], cls: 'background' }, box),
    ).toBe(4);
    const ground = [
      [
        [-10, 300],
        [522, 300],
        [522, 522],
        [-10, 522],
      ],
    ] as [number, number][][];
    expect(cornersFilled({ polys: ground, box: [-10, 300, 522, 522], cls: 'band' }, box)).toBe(2);
  });
});
