// Backdrops sliced by the author's non-square viewBox (issue 40): the sky of a scene cropped
// by its viewBox stays the backdrop on the square canvas, so what is drawn on it is judged as
// on any backdrop. Read on the sanitiser's parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { coversViewBox } from './frame-backdrops.ts';
import { sanitizeSvg } from './sanitize.ts';

describe('backdrops sliced by the viewBox', () => {
  it('says a shape meeting all four sides of a viewBox narrower than the canvas covers it', () => {
    // A 512 × 300 viewBox on the square canvas: the canvas shows 106 units above and below.
    const frame: [number, number, number, number] = [0, -106, 512, 512];
    const drawn: [number, number, number, number] = [0, 0, 512, 300];
    expect(coversViewBox([0, 0, 512, 700], frame, drawn)).toBe(true);
    // Short of the viewBox's top: not laid edge to edge of it.
    expect(coversViewBox([0, 40, 512, 700], frame, drawn)).toBe(false);
    // A square viewBox: the canvas is the viewBox, the usual background rule decides.
    expect(coversViewBox([0, 0, 512, 700], drawn, drawn)).toBe(false);
  });

  it('reads a tower over a sky the viewBox slices as a close-up, not a cut shaft', () => {
    // The scene was drawn 512 × 700 and cropped to its top 512 × 380 by the viewBox: the sky
    // runs on past the viewBox's bottom, and so does the tower's shaft under its tank.
    const body =
      '<rect width="512" height="700" fill="#22a"/>' +
      '<ellipse cx="256" cy="170" rx="130" ry="120" fill="#eee"/>' +
      '<path d="M200 235 L312 235 L320 700 L192 700 Z" fill="#ddd"/>';
    const f = sanitizeSvg(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 380">${body}</svg>`,
    ).code!.frame!;
    expect(f.cutRun).toBe(0);
    expect(f.subjectRun).toBe(0);
    // The sky is the background, not a close-up; the tower is the close-up.
    expect(f.owners.background).toBeGreaterThan(0.5);
    expect(f.closeUpRun).toBeGreaterThanOrEqual(MIN);
    expect(f.closeUpRun).toBeLessThan(0.2);
  });
});
