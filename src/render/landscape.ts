// A subject standing in a landscape is not a close-up (issue 40). The frame reading
// (frame-shapes.ts) calls a part a close-up when it fills the picture from the bottom edge and
// runs on past it: a bust, a portrait crop, a neck running off the bottom. But a building, a
// swan or a house's chimney cut by the bottom edge also fills the picture from there, and
// those are subjects sliced by the frame. What tells them apart is what is drawn under them:
// a deliberate close-up stands in front of a backdrop that fills the frame (a flat colour, a
// gradient, bokeh) — its composition is built around the one subject. A subject in a scene
// stands on a ground, in water, under a sky: a layer laid edge to edge across the picture
// whose top or bottom edge — a horizon, a shoreline, the line where a lawn meets the sky —
// lies inside the frame, behind the subject. Such a subject is judged as a subject (sliced
// when it runs past the frame), not excused as a close-up.
type Box = [number, number, number, number];

/** What this reads of frame-shapes.ts's FrameShape (not imported: frame-shapes.ts calls this). */
interface Layer {
  box: Box;
  cls: string;
  group: number;
}

/**
 * A layer's horizontal edge lies inside the frame when it is this share of the frame's
 * height away from the top and bottom: further in than a backdrop drawn a hair short of the
 * frame, so a full-frame backdrop is never a horizon.
 */
export const HORIZON_IN = 0.02;
/** Spanning the frame's width within this share of it at each side: laid edge to edge. */
export const ACROSS_TOL = 0.01;

/**
 * Whether a landscape layer — a background or band laid across the whole width of the frame
 * with its top or bottom edge inside the picture — lies behind `box` (the extent of the part
 * or figure shape `i` belongs to), drawn under it or over its foot (a lawn drawn after a
 * house hides the house's base: the house still stands on it). The edge must lie inside both
 * the canvas (`frame`) and the author's viewBox (`drawn`): a backdrop laid to the viewBox's
 * edges is not a horizon where the canvas shows margins beyond it (a card under a portrait
 * on a wide canvas).
 */
export function standsInLandscape(
  shapes: readonly Layer[],
  i: number,
  box: Box,
  frame: Box,
  drawn: Box,
): boolean {
  const [vx, vy, vw, vh] = frame;
  const group = shapes[i]!.group;
  // A layer drawn in the subject's own part is its ground only when that part draws the
  // whole scene (it holds the picture's background too: a house group with its sky and its
  // hill). A subject's own shape laid across the frame (shoulders wider than the picture)
  // is the subject, not a ground under it.
  const scenePart = group >= 0 && shapes.some((u) => u.group === group && u.cls === 'background');
  // What shows of the subject: its box inside the frame.
  const sy0 = Math.max(box[1], vy);
  const sy1 = Math.min(box[3], vy + vh);
  if (!(sy1 > sy0)) return false;
  for (const [k, u] of shapes.entries()) {
    if (k === i) continue;
    if (u.cls !== 'background' && u.cls !== 'band') continue;
    if (u.group === group && group >= 0 && !scenePart) continue;
    const [x0, y0, x1, y1] = u.box;
    if (x0 > vx + ACROSS_TOL * vw || x1 < vx + vw - ACROSS_TOL * vw) continue;
    // Behind the subject: the layer's height overlaps what shows of the subject.
    if (y1 <= sy0 || y0 >= sy1) continue;
    if (edgeInside(y0, frame, drawn) || edgeInside(y1, frame, drawn)) return true;
  }
  return false;
}

/** Whether a horizontal line at y lies inside the canvas and inside the viewBox. */
function edgeInside(y: number, [, vy, , vh]: Box, [, dy, , dh]: Box): boolean {
  const inCanvas = y > vy + HORIZON_IN * vh && y < vy + vh - HORIZON_IN * vh;
  const inDrawn = y > dy + HORIZON_IN * dh && y < dy + dh - HORIZON_IN * dh;
  return inCanvas && inDrawn;
}
