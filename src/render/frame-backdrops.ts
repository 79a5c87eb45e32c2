// Backdrops sliced by the author's own viewBox (issue 40, false alarms on real scenes). The
// class of drawing: a scene cropped by a non-square viewBox — a sky, a wall or a sea laid
// edge to edge of that viewBox and running on past it. The square canvas shows more than
// the viewBox (the margins beyond it are painted, fit.ts's paintedBox), so on the canvas the
// backdrop runs past a side it no longer meets, and the reach rule read it as a close-up
// filling the picture from that side. As a close-up it also swallowed every shape drawn on
// it (frame-shapes.ts's figures skip what a close-up holds), so a tower's tank and its shaft
// were no longer joined and the shaft read as a subject sliced by the bottom edge. A shape
// covering the frame as a background does and meeting all four sides of the viewBox is the
// backdrop, whatever it runs past. Kept apart from frame-shapes.ts (which calls it) so the
// rule says what it is for.

export type Box = [number, number, number, number];

/** Within this share of the viewBox a shape meets its side (as frame-shapes.ts's MEETS). */
const MEETS = 0.01;

/**
 * Whether a shape is laid edge to edge of the author's viewBox `drawn` where the canvas
 * (`frame`) shows more than it: it meets all four of the viewBox's sides. False where the
 * two are the same box (a square viewBox): there the usual background rule decides. The
 * caller asks it only of shapes covering the frame as a background does.
 */
export function coversViewBox(box: Box, frame: Box, drawn: Box): boolean {
  if (frame.every((v, i) => Math.abs(v - drawn[i]!) < 1e-9)) return false;
  const [x0, y0, x1, y1] = box;
  const [dx, dy, dw, dh] = drawn;
  return (
    x0 <= dx + MEETS * dw &&
    y0 <= dy + MEETS * dh &&
    x1 >= dx + dw - MEETS * dw &&
    y1 >= dy + dh - MEETS * dh
  );
}
