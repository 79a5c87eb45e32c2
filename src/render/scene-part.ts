// A part that is the whole scene (issue 40). Inkscape files and many hand-made scenes keep
// everything in one group (a layer holding the hill, the house, the trees, the bear): that
// group is one top-level part, and its joint box (backdrop left out) spans the frame. Judged
// by that box, every subject of the scene "fills the frame from a side" and reads as scenery,
// so a house, a bear or a portrait's head sliced by the frame in a crop is never cut — the
// commonest miss at the top edge. A part spanning the frame both across and down is the
// scene, not a figure framing it: its shapes are judged by their own extent instead, as
// shapeClass read them (a drape or a column there still reads as scenery by its own box).
import { subjectSlicedByTop } from './top-slice.ts';

/** What onBackdrop reads of a shape (frame-shapes.ts's FrameShape; kept apart: no cycle). */
interface Boxed {
  box: [number, number, number, number];
  cls: string;
}

/** Share of the frame's width and height a whole-scene part spans (as a band, BAND_SPAN). */
export const SCENE_SPAN = 0.9;

/**
 * Whether a part's joint box covers the frame both across and down (each at least SCENE_SPAN
 * of the frame's width and height, counting only what lies inside the frame).
 */
export function wholeScenePart(
  [x0, y0, x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
): boolean {
  const w = (Math.min(x1, vx + vw) - Math.max(x0, vx)) / vw;
  const h = (Math.min(y1, vy + vh) - Math.max(y0, vy)) / vh;
  return w >= SCENE_SPAN && h >= SCENE_SPAN;
}

/**
 * Whether a subject shape of a whole-scene part is sliced by the top edge, judged by its own
 * box (top-slice.ts: running past the top, hanging into the picture, clear of both sides,
 * short of the bottom: a head, a roof, a bear's back). Only the top: a whole scene's author
 * lets ground, foliage and flames run past the sides and the bottom by design, and those keep
 * the part's reading; a sky, a canopy or a drape reaching the top spans it or meets a side.
 */
export function slicedInScene(
  box: [number, number, number, number],
  part: [number, number, number, number],
  frame: [number, number, number, number],
): boolean {
  return wholeScenePart(part, frame) && subjectSlicedByTop(box, frame);
}

/**
 * Whether shape i is drawn straight on the backdrop: the first opaque shape under the middle
 * of what shows of it is a background or a band (a head on the wall, a roof on the sky),
 * not another patch of the scene (a planet's terrain, a map's regions laid over each other).
 */
export function onBackdrop(
  shapes: readonly Boxed[],
  i: number,
  [vx, vy, vw, vh]: [number, number, number, number],
): boolean {
  const [b0, b1, b2, b3] = shapes[i]!.box;
  const cx = (Math.max(b0, vx) + Math.min(b2, vx + vw)) / 2;
  const cy = (Math.max(b1, vy) + Math.min(b3, vy + vh)) / 2;
  for (let k = i - 1; k >= 0; k--) {
    const u = shapes[k]!;
    if (u.cls === 'light' || u.cls === 'texture') continue;
    if (cx > u.box[0] && cx < u.box[2] && cy > u.box[1] && cy < u.box[3])
      return u.cls === 'background' || u.cls === 'band';
  }
  return false;
}
