// A subject standing in a landscape is a subject, not a close-up (landscape.ts, issue 40):
// the same figure running off the bottom edge is a close-up in front of a backdrop that
// fills the frame, and a subject sliced by the frame when a sky and a ground meet behind it.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import type { FrameShape } from './frame-shapes.ts';
import { standsInLandscape } from './landscape.ts';

// A bust: shoulders widening down past the bottom edge under a head (box 52..460 × 50..600).
const BUST =
  '<g><path d="M100 230 L412 230 L460 600 L52 600 Z" fill="#c84"/><circle cx="256" cy="150" r="100" fill="#fc9"/><circle cx="290" cy="140" r="10" fill="#000"/></g>';

describe('standsInLandscape', () => {
  it('reads the same figure as a close-up on a backdrop and as cut in a landscape', () => {
    const plain = frameOf(`<rect width="512" height="512" fill="#234"/>${BUST}`);
    expect(plain.closeUpRun).toBeGreaterThanOrEqual(MIN);
    expect(plain.cutRun).toBe(0);
    // Sky over ground, the horizon behind the figure: a subject of the scene, sliced.
    const land = frameOf(
      `<rect width="512" height="300" fill="#8cf"/><rect y="300" width="512" height="212" fill="#3a3"/>${BUST}`,
    );
    expect(land.cutRun).toBeGreaterThanOrEqual(MIN);
    expect(land.closeUpRun).toBe(0);
  });

  it('keeps the close-up when the horizon lies above the figure or in its own part', () => {
    // A sky band ending above the head: nothing of the landscape is behind the subject.
    const above = frameOf(
      `<rect width="512" height="512" fill="#234"/><rect width="512" height="40" fill="#8cf"/>${BUST}`,
    );
    expect(above.closeUpRun).toBeGreaterThanOrEqual(MIN);
    // Shoulders drawn wider than the picture, ending inside it: the subject's own shape.
    const wide = frameOf(
      `<rect width="512" height="512" fill="#234"/><g><rect x="-40" y="380" width="600" height="200" fill="#c84"/>${BUST.slice(3)}`,
    );
    expect(wide.cutRun).toBe(0);
  });

  it('needs the horizon inside both the canvas and the viewBox', () => {
    const box: FrameShape['box'] = [100, 50, 400, 600];
    const shape = (cls: FrameShape['cls'], b: FrameShape['box'], group: number): FrameShape => ({
      polys: [],
      box: b,
      cls,
      group,
      rect: true,
      runsPast: false,
      bare: false,
    });
    // A backdrop laid to a wide viewBox's top edge, inside the taller square canvas.
    const card = [shape('background', [0, 0, 512, 400], 0), shape('subject', box, 1)];
    expect(standsInLandscape(card, 1, box, [0, -56, 512, 512], [0, 0, 512, 400])).toBe(false);
    // The same edge inside the viewBox too: a horizon.
    expect(standsInLandscape(card, 1, box, [0, -56, 512, 512], [0, -56, 512, 512])).toBe(true);
    // A ground drawn after the subject (over its foot) is a landscape all the same.
    expect(
      standsInLandscape([card[1]!, card[0]!], 0, box, [0, -56, 512, 512], [0, -56, 512, 512]),
    ).toBe(true);
    // A backdrop filling the frame has no edge inside it.
    const full = [shape('background', [0, 0, 512, 512], 0), shape('subject', box, 1)];
    expect(standsInLandscape(full, 1, box, [0, 0, 512, 512], [0, 0, 512, 512])).toBe(false);
  });
});
