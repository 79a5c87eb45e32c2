// Repeated motifs framing the picture (issue 40, h38tune, 7 Dec 2026). An author who frames a
// scene with foliage, a forest edge or a row of pines draws one leaf or one tree and places it
// again and again with <use>, at the picture's sides and corners, running off them by design:
// the copies reaching the frame are scenery, like a drape or a column, not subjects sliced by
// it. A subject drawn with <use> is placed once or a few times where it stands (a caravan's
// camels in a row, a flower's petals turned about its head), and meets the frame at most on
// one side, where it is cut. What tells the framing motif is the structure: one element used
// MOTIF_COPIES times or more, whose copies meet MOTIF_SIDES sides of the frame or more. The
// copies of such a motif that reach the frame become scenery; the rest keep their class.

type Box = [number, number, number, number];

/** What this reads of frame-shapes.ts's FrameShape (not imported: it calls this module). */
interface Copy {
  box: Box;
  cls: string;
  /** The id of the element a <use> placed this shape from, and which placement it was. */
  motif?: string;
  copy?: number;
}

/** A motif placed this many times… */
export const MOTIF_COPIES = 3;
/** …whose copies meet this many sides of the frame between them frames the picture. */
export const MOTIF_SIDES = 2;
/** Within this share of the frame a copy meets a side (as frame-shapes.ts's MEETS). */
const MEETS = 0.01;

/** The sides of the frame a box meets, as bits: top 1, right 2, bottom 4, left 8. */
function sidesMet([x0, y0, x1, y1]: Box, [vx, vy, vw, vh]: Box): number {
  return (
    (y0 <= vy + MEETS * vh ? 1 : 0) |
    (x1 >= vx + vw - MEETS * vw ? 2 : 0) |
    (y1 >= vy + vh - MEETS * vh ? 4 : 0) |
    (x0 <= vx + MEETS * vw ? 8 : 0)
  );
}

const bits = (n: number) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1);

/**
 * Subject (and flush) shapes of the copies of a framing motif that reach the frame become
 * scenery. Mutates `cls`; returns how many. Work: one pass over the shapes, one over copies.
 */
export function sceneryMotifs(shapes: Copy[], frame: Box): number {
  // Each copy's box: the joint box of the opaque shapes it placed.
  const copies = new Map<number, { motif: string; box: Box }>();
  for (const s of shapes) {
    if (s.motif === undefined || s.copy === undefined) continue;
    if (s.cls === 'light' || s.cls === 'texture') continue;
    const c = copies.get(s.copy);
    if (!c) copies.set(s.copy, { motif: s.motif, box: [...s.box] });
    else {
      c.box = [Math.min(c.box[0], s.box[0]), Math.min(c.box[1], s.box[1]), Math.max(c.box[2], s.box[2]), Math.max(c.box[3], s.box[3])]; // biome-ignore format: a box
    }
  }
  if (copies.size < MOTIF_COPIES) return 0;
  const motifs = new Map<string, { copies: number; sides: number }>();
  const reaching = new Set<number>();
  for (const [k, c] of copies) {
    const m = motifs.get(c.motif) ?? { copies: 0, sides: 0 };
    const met = sidesMet(c.box, frame);
    m.copies++;
    m.sides |= met;
    if (met) reaching.add(k);
    motifs.set(c.motif, m);
  }
  let changed = 0;
  for (const s of shapes) {
    if (s.copy === undefined || !reaching.has(s.copy)) continue;
    if (s.cls !== 'subject' && s.cls !== 'flush') continue;
    const m = motifs.get(s.motif!)!;
    if (m.copies < MOTIF_COPIES || bits(m.sides) < MOTIF_SIDES) continue;
    s.cls = 'scenery';
    changed++;
  }
  return changed;
}
