// A scene kept in one group (issue 40): its joint box spans the frame, and a head the top
// slices must still read as cut — by its own box — while a patch of a surface running past
// the top and a bare cloud keep the part's reading. On the sanitiser's parse, as the worker.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { wholeScenePart } from './scene-part.ts';

const F: [number, number, number, number] = [0, 0, 500, 500];
const frame = (body: string) => frameOf(body, '0 0 500 500');
// The layer: a wall, a bush on the bottom-left, a plant hung at the top-right; a signature
// drawn beside it makes the layer one part of two (not looked through as a lone wrapper).
const layer = (inner: string) =>
  `<rect x="440" y="485" width="40" height="8" fill="#000"/><g><rect width="500" height="500" fill="#dde"/><path d="M0 320 Q80 280 150 340 L150 500 L0 500 Z" fill="#3a6"/><path d="M400 0 L500 0 L500 240 Q440 200 400 0 Z" fill="#484"/>${inner}</g>`;
// A head of its own fill carrying eyes and a mouth, 160 wide, from y0 to 330.
const head = (y0: number) =>
  `<path d="M180 ${y0} L340 ${y0} L340 260 Q260 340 180 260 Z" fill="#eca"/><circle cx="230" cy="150" r="12" fill="#000"/><circle cx="290" cy="150" r="12" fill="#000"/><rect x="235" y="220" width="50" height="10" fill="#a33"/>`;

describe('scene part', () => {
  it('reads a part spanning the frame both ways as the whole scene', () => {
    expect(wholeScenePart([-20, -40, 520, 500], F)).toBe(true);
    expect(wholeScenePart([0, 100, 500, 500], F)).toBe(false);
  });

  it('gives a head in the scene layer that the top slices a cut run, and a whole one none', () => {
    expect(frame(layer(head(-80))).cutRun).toBeGreaterThan(MIN);
    expect(frame(layer(head(40))).subjectRun).toBe(0);
  });

  it('keeps a bare cloud running past the top in the layer as the layer reads it', () => {
    const cloud = '<path d="M180 -80 L340 -80 L340 260 Q260 340 180 260 Z" fill="#fff"/>';
    expect(frame(layer(cloud)).subjectRun).toBe(0);
  });
});
