// Subjects with their own silhouette read as backdrop (issue 40). In a tight crop a big
// subject — a bunch of grapes drawn as nested shading layers, a house, a dog's body — covers
// half the picture and meets three sides, so by its box it reads as a background
// (frame-shapes.ts). A backdrop is laid edge to edge: a sky, a wall, a ground or a gradient
// fills the frame's corners (a ground its two bottom ones, a sky its two top ones, a wall all
// four). A subject is a closed figure with its own outline, round or ragged: sliced by the
// frame, it leaves the corners to what lies behind it. A shape read as background by its box
// that fills at most one corner of the frame and runs on past it (sliced, not drawn up to it)
// is such a figure's silhouette: a subject. Shapes drawn after it and held in its box — the
// inner shading layers of the same figure, read as bands — go with it.

import { type Box, holdsShare } from './box.ts';
import { clippedArea, type Pt } from './geometry.ts';
import { inside } from './shape-hit.ts';

/** What this reads of frame-shapes.ts's FrameShape (not imported: it calls this module). */
interface Piece {
  polys: Pt[][];
  box: Box;
  cls: string;
  body?: true;
  /** A disc laid from the frame's edge (frame-discs.ts): a backdrop, not a figure's body. */
  disc?: true;
}

/** The corners are tested this share of the frame inside it (not on the rim). */
const INSET = 0.01;
/** A backdrop fills at least this many of the frame's four corners. */
export const BACKDROP_CORNERS = 2;
/** A shape filling this share of its own box is a panel (as close-up.ts's PANEL_FILL). */
export const PANEL_FILL = 0.9;
/** A body running this share of its height past the bottom stands there (a bust). */
export const CLOSEUP_PAST = 0.05;
/** Within this share of its own size a shape's box holds a later one (its inner layers). */
const HOLD_TOL = 0.02;

/** How many of the frame's four corners a shape fills. */
export function cornersFilled(s: Piece, [vx, vy, vw, vh]: Box): number {
  const [ex, ey] = [INSET * vw, INSET * vh];
  const corners: Pt[] = [
    [vx + ex, vy + ey],
    [vx + vw - ex, vy + ey],
    [vx + vw - ex, vy + vh - ey],
    [vx + ex, vy + vh - ey],
  ];
  return corners.filter(([x, y]) => inside(s, x, y)).length;
}

/**
 * Background shapes that fill fewer than BACKDROP_CORNERS corners and run past the frame as
 * a sliced subject does (`runsPast`: frame-shapes.ts's RUNS_PAST) become subjects, the body
 * of a figure; background and band shapes drawn after one and held in its box go with it.
 * Mutates `cls` (and marks `body`); returns how many.
 */
export function promoteSilhouettes(
  shapes: Piece[],
  frame: Box,
  runsPast: (box: Box) => boolean,
): number {
  let promoted = 0;
  const bodies: Box[] = [];
  for (const s of shapes) {
    if (s.cls !== 'background' && s.cls !== 'band') continue;
    const held = bodies.some((b) => holdsShare(b, s.box, HOLD_TOL));
    const figure =
      s.cls === 'background' &&
      !s.disc &&
      runsPast(s.box) &&
      !standsPastBottom(s.box, frame) &&
      !panel(s) &&
      cornersFilled(s, frame) < BACKDROP_CORNERS;
    if (!held && !figure) continue;
    s.cls = 'subject';
    s.body = true;
    if (figure) bodies.push(s.box);
    promoted++;
  }
  return promoted;
}

/**
 * Whether a shape fills PANEL_FILL of its own box: a card, a board, a wall — a panel laid
 * under what is drawn on it, not a figure with a silhouette of its own.
 */
function panel(s: Piece): boolean {
  const [x0, y0, x1, y1] = s.box;
  let area = 0;
  for (const poly of s.polys) if (poly.length > 2) area += clippedArea(poly, x0, y0, x1, y1);
  return area >= PANEL_FILL * (x1 - x0) * (y1 - y0);
}

/**
 * Whether a box runs on past the frame's bottom by CLOSEUP_PAST of its height: a body filling
 * the frame up from the bottom (a bust's shoulders) is a close-up, read as such elsewhere.
 */
function standsPastBottom([, y0, , y1]: Box, [, vy, , vh]: Box): boolean {
  return y1 - (vy + vh) >= CLOSEUP_PAST * (y1 - y0);
}
