// A rect that is a limb of a figure, not architecture (issue 40). frame-shapes.ts reads a
// bare axis-aligned <rect> on the frame as a shelf, a tabletop, a beam or a wall unless it
// runs far past (RECT_PAST) or its part is sliced deep into the picture (reachClass). A small
// figure built partly of rects — a hiker whose shins are rects, his group translated so low
// that shins and boots run off the bottom — is neither: its part is clear of the frame but for
// the one side it is pushed through, runs past that side by a tenth of itself, and its rects
// there are legs, narrow beside the figure. Such a rect is the figure, cut with it.

import type { Box } from './box.ts';

/** What this reads of frame-shapes.ts's FrameShape (not imported: it calls this module). */
interface Piece {
  box: Box;
  cls: string;
  group: number;
  rect: boolean;
}

/** Within this share of the frame a box meets a side (frame-shapes.ts MEETS). */
const MEETS = 0.01;
/** A limb's chord along the side is at most this share of its figure's extent along it. */
export const LIMB_CHORD = 0.5;
const OPAQUE = new Set(['subject', 'scenery', 'closeup', 'flush']);

/**
 * Whether rect `i` is a limb of its part's figure sliced through one side: the part (box
 * `part`) meets only that side and runs at least `sliced` of its extent past it, holds an
 * opaque shape that is not a rect (a figure of varied shapes, not a piece of furniture or a
 * building made of boxes), and the rect crosses that side over at most LIMB_CHORD of the
 * part's extent along it.
 */
export function rectLimb(
  shapes: readonly Piece[],
  i: number,
  part: Box,
  [vx, vy, vw, vh]: Box,
  sliced: number,
): boolean {
  const s = shapes[i]!;
  const [x0, y0, x1, y1] = part;
  const w = x1 - x0;
  const h = y1 - y0;
  if (!(w > 0 && h > 0)) return false;
  const tx = MEETS * vw;
  const ty = MEETS * vh;
  // Each side: whether the part meets it, its share past it, and the rect's chord along it.
  const [r0, q0, r1, q1] = s.box;
  const chordX = (Math.min(r1, x1) - Math.max(r0, x0)) / w;
  const chordY = (Math.min(q1, y1) - Math.max(q0, y0)) / h;
  const sides: [boolean, number, boolean, number][] = [
    [y0 <= vy + ty, (vy - y0) / h, q0 <= vy, chordX],
    [x1 >= vx + vw - tx, (x1 - vx - vw) / w, r1 >= vx + vw, chordY],
    [y1 >= vy + vh - ty, (y1 - vy - vh) / h, q1 >= vy + vh, chordX],
    [x0 <= vx + tx, (vx - x0) / w, r0 <= vx, chordY],
  ];
  const met = sides.filter(([m]) => m);
  if (met.length !== 1) return false;
  const [, past, crosses, chord] = met[0]!;
  if (past < sliced || !crosses || chord > LIMB_CHORD) return false;
  return shapes.some((u) => u.group === s.group && !u.rect && OPAQUE.has(u.cls));
}
