// A subject sliced by the top edge, not hung from it (issue 40). reachClass (frame-shapes.ts)
// reads a shape filling the picture from the top as scenery — a drape, a canopy, a beam
// hung there — unless it runs on well past the top (RUNS_PAST). A vase whose neck the top
// slices, a bottle, a figure's head, runs past it by less than that yet more than a drape
// is ever drawn past (CLOSEUP_PAST): what marks it is that it is bounded inside the frame at
// both sides and stops short of the bottom, standing on a table or on the ground drawn
// there. A drape or a canopy meets a side; a column or a beam of light reaches the bottom
// (a band); a sky spans the frame.

/** Within this share of the frame a box meets a side (as reachClass's tolerance). */
export const SIDE_TOL = 0.005;

/**
 * Whether a box running past the top (by CLOSEUP_PAST, checked by the caller) is a subject
 * sliced by it: clear of the left and right sides and short of the bottom.
 */
export function slicedByTop(
  [x0, , x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
): boolean {
  return x0 > vx + SIDE_TOL * vw && x1 < vx + vw - SIDE_TOL * vw && y1 < vy + vh - SIDE_TOL * vh;
}

/** A shape runs past the top by this share of its height to be sliced there (CLOSEUP_PAST). */
export const TOP_SLICE_PAST = 0.05;

/**
 * …and hangs this share down into the picture (as DEEP_REACH): a body through the picture,
 * not a foam crest or a cloud streak lying along the top edge.
 */
export const TOP_SLICE_REACH = 0.55;

/**
 * Whether a shape is a subject sliced by the top: it runs past the top by TOP_SLICE_PAST of
 * its height, hangs TOP_SLICE_REACH down, clear of both sides and short of the bottom. A lone
 * tall shape on the wall is not a streak of it when the top slices it (a vase's neck, a
 * bottle): a streak (a grain line, a crest, a cloud band) lies in its backdrop along an edge.
 */
export function subjectSlicedByTop(
  box: [number, number, number, number],
  frame: [number, number, number, number],
): boolean {
  const [, y0, , y1] = box;
  const [, vy, , vh] = frame;
  return (
    y1 > y0 &&
    vy - y0 >= TOP_SLICE_PAST * (y1 - y0) &&
    y1 - vy >= TOP_SLICE_REACH * vh &&
    slicedByTop(box, frame)
  );
}
