// A subject sliced by the left or right side, not reaching in from it (issue 40, h38tune,
// 7 Dec 2026). reachClass (frame-shapes.ts) reads a part filling the picture from a side as
// scenery — a drape, a bank, a canopy — unless it runs on well past that side (RUNS_PAST). A
// train or a gondola entering from the right runs past it by less than that yet more than
// scenery is drawn past its side (CLOSEUP_PAST), and what marks it is what top-slice.ts reads
// at the top, turned a quarter: it is bounded inside the picture above and below. A drape or
// a canopy hangs from the top, a bank or a hill stands on the bottom, a sky or a wall spans
// the picture; a vehicle, an animal or a building sliced by the side floats clear of both.
// Clear of the author's viewBox's top and bottom too: on a canvas wider than a short viewBox
// the margins lie above and below, and a sky drawn to the viewBox's top is not clear of it.

type Box = [number, number, number, number];

/** Within this share of the frame a box meets the top or bottom (as top-slice.ts's SIDE_TOL). */
export const END_TOL = 0.005;

/**
 * Whether a box running past the left or right side (by CLOSEUP_PAST, checked by the caller)
 * is a subject sliced there: clear of the top and the bottom of the canvas (`frame`) and of
 * the author's viewBox (`drawn`).
 */
export function slicedBySide([, y0, , y1]: Box, [, vy, , vh]: Box, [, dy, , dh]: Box): boolean {
  return (
    y0 > vy + END_TOL * vh &&
    y1 < vy + vh - END_TOL * vh &&
    y0 > dy + END_TOL * dh &&
    y1 < dy + dh - END_TOL * dh
  );
}
