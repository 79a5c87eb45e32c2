// Discs laid from the frame's edge (issue 40: the class of both blind false alarms left in
// session 39 — model-c l07-b's light disc behind a clock, model-d s08-a's Earth under an
// astronaut). A planet, a sun, a moon or a pool of light is drawn as one big circle whose
// centre sits on the frame's side or past it: the author chose to show half of it or less.
// A subject cut by accident keeps most of itself in the picture — the planted cuts leave
// 35–60 % of their box outside — and is drawn as a figure, not as one round shape. So a
// circle or ellipse of that size, centred on or beyond a side (alone, or leading its group
// with its craters), with a figure drawn in front of it, is backdrop: what is drawn on it is
// judged as on any backdrop, and the frame does not cut it. Tuned on the composed
// backdrop-disc family, seed 40 (scene-corpus.ts); seed 41 is held out.

import { type Box, holdsShare } from './box.ts';

/**
 * Its radius (an ellipse's geometric mean of the two) is at least this share of the frame's
 * shorter side: a disc at least two fifths of the frame wide.
 */
export const DISC_RADIUS = 0.2;
/** Its centre lies no further inside a side than this share of the frame's side… */
export const CENTRE_IN = 0.02;
/**
 * …or, for a disc this big (its longer semi-axis this share of the frame's shorter side: 60 %
 * of the frame wide), no further than DEEP_CENTRE_IN of its own radius. A planet or a sun that big
 * is often shown two thirds whole (model-e l10-a, blind: a gas giant 0.14 of its radius
 * inside the bottom edge, 57 % shown). An accidental cut of a round subject that big is read
 * as backdrop only with a figure of another part drawn in front (backdropDiscs).
 */
export const BIG_DISC = 0.3;
export const DEEP_CENTRE_IN = 0.25;

/**
 * Whether a circle or ellipse with canvas box `box` is a disc laid from the frame's edge: big
 * (DISC_RADIUS) and centred on or past one of the frame's sides (CENTRE_IN), or very big
 * (BIG_DISC) and centred just inside one (DEEP_CENTRE_IN).
 */
export function risesFromEdge(box: Box, [vx, vy, vw, vh]: Box): boolean {
  const [x0, y0, x1, y1] = box;
  const radius = Math.sqrt((x1 - x0) * (y1 - y0)) / 2;
  const short = Math.min(vw, vh);
  if (radius < DISC_RADIUS * short) return false;
  // Big by its longer axis: an ellipse 60 % of the frame wide is as big a planet as a circle.
  const deep = Math.max(x1 - x0, y1 - y0) / 2 >= BIG_DISC * short ? DEEP_CENTRE_IN / 2 : 0;
  const inX = Math.max(CENTRE_IN * vw, deep * (x1 - x0));
  const inY = Math.max(CENTRE_IN * vh, deep * (y1 - y0));
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  return cx <= vx + inX || cx >= vx + vw - inX || cy <= vy + inY || cy >= vy + vh - inY;
}

/** What this reads of frame-shapes.ts's FrameShape (not imported: it calls this module). */
interface Piece {
  box: Box;
  cls: string;
  group: number;
  bare: boolean;
  /** A circle or an ellipse. */
  round?: true;
  disc?: true;
}

/** What this reads of frame-strokes.ts's StrokeShape: a stroke-only shape and its place. */
interface Outline {
  group: number;
  closed: boolean;
  at?: number;
}

/** The classes a disc (or a mark on one) is read out of: light and texture stay what they are. */
const OPAQUE = new Set(['subject', 'scenery', 'closeup', 'flush']);
/**
 * …and a background or a band already (a disc as tall or wide as the frame is a band by its
 * size), marked so no later reading makes it a figure's body.
 */
const DISC_FROM = new Set([...OPAQUE, 'background', 'band']);
/** What a figure drawn in front of the disc is. */
const FIGURE = new Set(['subject', 'flush', 'closeup']);
/** Within this share of the disc's own size a mark's box lies inside the disc's. */
const HELD = 0.01;
/** More big discs than this from the edge are a scatter (bokeh, bubbles), not planets. */
export const MOST_DISCS = 8;

/**
 * Discs laid from the frame's edge become backdrop (`cls` 'background', marked `disc`), and so
 * do the marks drawn on them — craters, land, a sea: the rest of the disc's own group, and a
 * bare shape drawn after it with its box inside the disc's. A disc is a circle or an ellipse
 * drawn as a part of its own, or leading its group (the group's first opaque shape, every
 * later one inside its box: a `<g id="planet">`). Only where a figure is drawn in front: a
 * later shape of another part that is not a mark, or a closed line-art outline of another
 * part painted after it (`strokes`). A lone disc centred on the edge is the picture's subject,
 * so the origin mistake (a sun or a face written at 0,0) is still a cut. Mutates; returns how
 * many discs.
 */
export function backdropDiscs(shapes: Piece[], frame: Box, strokes: Outline[] = []): number {
  // Each part's first opaque shape, and whether every later one of the part lies in its box.
  const lead = new Map<number, number>();
  const held = new Map<number, boolean>();
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    if (!DISC_FROM.has(s.cls)) continue;
    const l = lead.get(s.group);
    if (l === undefined) {
      lead.set(s.group, i);
      held.set(s.group, true);
    } else if (!holdsShare(shapes[l]!.box, s.box, HELD)) held.set(s.group, false);
  }
  const rising: number[] = [];
  for (let i = 0; i < shapes.length && rising.length <= MOST_DISCS; i++) {
    const d = shapes[i]!;
    if (!d.round || d.group < 0 || lead.get(d.group) !== i || !held.get(d.group)) continue;
    if (risesFromEdge(d.box, frame)) rising.push(i);
  }
  // Each disc reads every shape after it: more than a few is not a sky with planets, and a
  // drawing of thousands would cost their square.
  if (rising.length > MOST_DISCS) return 0;
  let discs = 0;
  for (const i of rising) {
    const d = shapes[i]!;
    const marks: Piece[] = [];
    let figure = false;
    for (let k = i + 1; k < shapes.length; k++) {
      const m = shapes[k]!;
      if (m.group === d.group) {
        if (OPAQUE.has(m.cls)) marks.push(m);
      } else if (m.bare && OPAQUE.has(m.cls) && holdsShare(d.box, m.box, HELD)) marks.push(m);
      else if (FIGURE.has(m.cls)) figure = true;
    }
    // A line-art figure drawn in front counts too: a closed outline of another part.
    figure ||= strokes.some((t) => t.closed && t.group !== d.group && (t.at ?? 0) > i);
    if (!figure) continue;
    for (const m of [d, ...marks]) [m.cls, m.disc] = ['background', true];
    discs++;
  }
  return discs;
}
