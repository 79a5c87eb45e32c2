// A deliberate close-up, read from the drawing's structure (issue 40): a bust, a portrait
// crop, a neck running off the lower corner. Its author draws the subject *up to* the
// bottom edge, so nothing is sliced and the frame's owners (frame-structure.ts) say nothing;
// what tells it is the shape of the picture: one dominant subject standing on the bottom
// edge over a wide span, its top inside the frame, tall and large — not a scene, whose
// ground and sky are bands and backgrounds left out here. A bust widens toward the edge it
// stands on (shoulders under a head) or runs off a side low down; a round thing meeting the
// edge (a plate, a rabbit sitting on it) is widest inside the frame and is read `round`,
// not a close-up. The `clipped` check reports a `bust` as `cut: "close_up"`, never a flag.
import { WIDENS } from './bust-shape.ts';
import type { FrameShape } from './frame-shapes.ts';
import { clippedArea } from './geometry.ts';
import { inside } from './shape-hit.ts';

/** Columns and rows of the grid the subject's width profile is sampled on. */
export const GRID = 48;
/** A part meets the bottom (or a side) within this share of the frame. */
export const EDGE = 0.01;
/** The top of a close-up's subject lies this share of the frame below the top edge. */
export const TOP_GAP = 0.02;
/** …it stands this tall in the frame… */
export const MIN_HEIGHT = 0.5;
/** …its box covers this share of the frame… */
export const MIN_AREA = 0.35;
/**
 * …and it meets the frame over this share of a side: along the bottom, plus up the sides
 * in the lower half of the frame.
 */
export const CONTACT = 0.15;
/** A subject meeting the sides over this share of the frame's height, low down, is a bust. */
export const SIDE_RUN = 0.25;

export interface CloseUpReading {
  /** `bust`: a close-up; `round`: what stands on the bottom is widest inside (a plate, a sitting animal). */
  shape: 'bust' | 'round';
  /** The part (frame-shapes.ts `group`) read as the subject. */
  part: number;
  /** Its width at the bottom edge and its height, shares of the frame. */
  bottom: number;
  height: number;
}

type Box = [number, number, number, number];

/** A shape filling this share of its own box… */
export const PANEL_FILL = 0.9;
/** …over this share of the frame is a panel laid under the subject (a card, a wall). */
export const PANEL_AREA = 0.4;

/**
 * A shape laid under the picture rather than standing in it: a background or a band; one
 * classed otherwise that meets both sides and the top or bottom (a backdrop drawn inside the
 * subject's own group, read as a close-up because it runs past the bottom with it); or a
 * large panel filling its box (a card, a wall drawn in the subject's group).
 */
function backdrop(s: FrameShape, [vx, vy, vw, vh]: Box): boolean {
  if (s.cls === 'background' || s.cls === 'band') return true;
  const [x0, y0, x1, y1] = s.box;
  const across = x0 <= vx + EDGE * vw && x1 >= vx + vw - EDGE * vw;
  if (across && (y0 <= vy + EDGE * vh || y1 >= vy + vh - EDGE * vh)) return true;
  const [cx0, cy0, cx1, cy1] = [
    Math.max(x0, vx),
    Math.max(y0, vy),
    Math.min(x1, vx + vw),
    Math.min(y1, vy + vh),
  ];
  const boxArea = Math.max(0, cx1 - cx0) * Math.max(0, cy1 - cy0);
  if (boxArea < PANEL_AREA * vw * vh) return false;
  let area = 0;
  for (const poly of s.polys) if (poly.length > 2) area += clippedArea(poly, cx0, cy0, cx1, cy1);
  return area >= PANEL_FILL * boxArea;
}

/** Share of the frame's width covered by shapes at height y (GRID columns). */
function rowWidth(list: FrameShape[], y: number, [vx, , vw]: Box): number {
  let n = 0;
  for (let c = 0; c < GRID; c++) {
    const x = vx + ((c + 0.5) * vw) / GRID;
    if (list.some((s) => inside(s, x, y))) n++;
  }
  return n / GRID;
}

/** Share of the frame's height where shapes meet the left or right side, in its lower half. */
function sideContact(list: FrameShape[], [vx, vy, vw, vh]: Box): number {
  let n = 0;
  const inset = EDGE * vw;
  for (let r = GRID / 2; r < GRID; r++) {
    const y = vy + ((r + 0.5) * vh) / GRID;
    if (list.some((s) => inside(s, vx + inset, y))) n++;
    if (list.some((s) => inside(s, vx + vw - inset, y))) n++;
  }
  return n / GRID;
}

/** Widths of shapes row by row from y0 down to the frame's bottom edge (last row just inside). */
function profile(list: FrameShape[], y0: number, frame: Box): number[] {
  const bottom = frame[1] + frame[3];
  const rows: number[] = [];
  for (let r = 0; r < GRID; r++)
    rows.push(rowWidth(list, y0 + ((r + 0.5) * (bottom - y0)) / GRID, frame));
  return rows;
}

/** The close-up reading of a drawing's shapes, or null when nothing stands on the bottom. */
export function readCloseUp(shapes: FrameShape[], frame: Box): CloseUpReading | null {
  const [vx, vy, vw, vh] = frame;
  const parts = new Map<number, FrameShape[]>();
  for (const [i, s] of shapes.entries()) {
    if (s.cls === 'light' || s.cls === 'texture' || backdrop(s, frame)) continue;
    // A shape drawn outside any top-level part stands alone.
    const key = s.group >= 0 ? s.group : -1 - i;
    const list = parts.get(key);
    if (list) list.push(s);
    else parts.set(key, [s]);
  }
  // Each part's box inside the frame; the subject is the largest.
  let lead: { part: number; list: FrameShape[]; b: Box; h: number; area: number } | null = null;
  for (const [part, list] of parts) {
    const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const s of list) {
      b[0] = Math.min(b[0], s.box[0]);
      b[1] = Math.min(b[1], s.box[1]);
      b[2] = Math.max(b[2], s.box[2]);
      b[3] = Math.max(b[3], s.box[3]);
    }
    const w = Math.max(0, Math.min(b[2], vx + vw) - Math.max(b[0], vx)) / vw;
    const h = Math.max(0, Math.min(b[3], vy + vh) - Math.max(b[1], vy)) / vh;
    if (!lead || w * h > lead.area) lead = { part, list, b, h, area: w * h };
  }
  if (!lead) return null;
  const { b, h, list } = lead;
  const edge = vy + vh - EDGE * vh;
  if (b[3] < edge || h < MIN_HEIGHT || lead.area < MIN_AREA) return null;
  if (b[1] <= vy + TOP_GAP * vh) return null;
  // It meets the frame over a wide span: along the bottom edge, and up the sides in the
  // lower half of the frame (a neck running off the corner, a leaf off the side).
  const edgeShapes = list.filter((s) => s.box[3] >= edge);
  const bottomY = vy + vh - vh / (2 * GRID);
  const bottom = rowWidth(edgeShapes, bottomY, frame);
  const side = sideContact(list, frame);
  const contact = bottom + side;
  if (contact < CONTACT) return null;
  // A bust widens toward the edge it stands on (a body under a head), or runs off a side
  // low in the frame (a neck to the corner). A round thing meeting the edge — a plate
  // sliced by it, a sitting animal — is widest inside the frame. Read on the one shape
  // meeting the bottom widest, not the whole part: a plate among the fries is a plate.
  let shape: CloseUpReading['shape'] = side >= SIDE_RUN ? 'bust' : 'round';
  if (shape === 'round' && edgeShapes.length > 0) {
    let base = edgeShapes[0]!;
    let baseWidth = -1;
    for (const s of edgeShapes) {
      const w = rowWidth([s], bottomY, frame);
      if (w > baseWidth) [base, baseWidth] = [s, w];
    }
    const rows = profile([base], Math.max(vy, base.box[1]), frame);
    if (rows[GRID - 1]! >= WIDENS * Math.max(...rows.slice(GRID / 2))) shape = 'bust';
  }
  return {
    shape,
    part: lead.part,
    bottom,
    height: h,
  };
}
