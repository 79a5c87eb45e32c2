// Bodies of subjects read as backdrop (issue 40). In a tight frame a subject's body covers
// most of the picture and meets three sides, so by its box it reads as a background or a
// band (frame-shapes.ts): a sleeping bear sliced through its back, a logo's gear sliced
// through a tooth. A backdrop is laid first and carries the scene; a body is drawn over the
// backdrop as one shape of a figure drawn as a group (the bear's body with its eye, ear and
// nose; the gear with its K), whose other shapes are drawn on it. Such a shape is the body
// of a subject, judged as one: cut where it runs past the frame.

import { type Box, holdsBox } from './box.ts';

/** What this reads of frame-shapes.ts's FrameShape (not imported: it calls this module). */
interface Piece {
  box: Box;
  cls: string;
  group: number;
  bare: boolean;
  body?: true;
  /** A disc laid from the frame's edge (frame-discs.ts): a backdrop, not a figure's body. */
  disc?: true;
}

/** Within this share of the frame one box lies inside another. */
const TOL = 0.01;
/** A body showing less than this share of the frame in depth only grazes it. */
export const GRAZE = 0.05;

/** Its box clipped to the frame: what the picture shows of it. */
const shown = (b: Box, [vx, vy, vw, vh]: [number, number, number, number]): Box => [
  Math.max(b[0], vx),
  Math.max(b[1], vy),
  Math.min(b[2], vx + vw),
  Math.min(b[3], vy + vh),
];

/**
 * Background and band shapes that are the body of a figure drawn over the backdrop become
 * subjects: drawn after a background that holds what shows of them, in a part of the drawing
 * (a group) whose own later shapes are drawn on them (centred inside them). A sky, a ground
 * or a wall is laid before the scene and holds other parts' shapes, not its own group's
 * detail drawn later over an earlier backdrop. `runsPast`: whether a box runs past the frame
 * as a sliced subject does (frame-shapes.ts's RUNS_PAST). Mutates `cls`; returns how many.
 */
export function promoteBodies(
  shapes: Piece[],
  frame: [number, number, number, number],
  runsPast: (box: Box) => boolean,
): number {
  const tx = TOL * frame[2];
  const ty = TOL * frame[3];
  let promoted = 0;
  for (const [i, s] of shapes.entries()) {
    if ((s.cls !== 'background' && s.cls !== 'band') || s.group < 0 || s.bare || s.disc) continue;
    const seen = shown(s.box, frame);
    // (A body filling the frame up from the bottom edge it runs past is still a close-up:
    // its group's extent says so in regroup, which this does not overrule.) A strip along a
    // side thinner than GRAZE shows an edge of a body, not a subject seen as sliced.
    // A body drawn edge to edge and hardly past (a bell, a table filling the width) is framed
    // to the picture; a body sliced by the frame runs on well past it, as a cut subject does.
    if (!runsPast(s.box)) continue;
    if (Math.min(seen[2] - seen[0], seen[3] - seen[1]) < GRAZE * Math.min(frame[2], frame[3]))
      continue;
    let over = false;
    for (let k = 0; k < i && !over; k++) {
      const u = shapes[k]!;
      over =
        u.cls === 'background' &&
        u.group !== s.group &&
        holdsBox(shown(u.box, frame), seen, tx, ty);
    }
    if (!over) continue;
    let detail = false;
    for (let k = i + 1; k < shapes.length && !detail; k++) {
      const u = shapes[k]!;
      if (u.group !== s.group || u.cls === 'light' || u.cls === 'texture') continue;
      const cx = (u.box[0] + u.box[2]) / 2;
      const cy = (u.box[1] + u.box[3]) / 2;
      detail = cx > s.box[0] && cx < s.box[2] && cy > s.box[1] && cy < s.box[3];
    }
    if (!detail) continue;
    // A body running past all four sides holds the whole frame: the picture is a view inside
    // the subject (a macro of a rose, a face filling it), framed on purpose, not a subject
    // the frame slices off one side.
    const [vx, vy, vw, vh] = frame;
    const overAll =
      s.box[0] < vx - tx &&
      s.box[1] < vy - ty &&
      s.box[2] > vx + vw + tx &&
      s.box[3] > vy + vh + ty;
    s.cls = overAll ? 'closeup' : 'subject';
    s.body = true;
    promoted++;
  }
  return promoted;
}
