// Boxes of the frame walk (frame-*.ts): [x0, y0, x1, y1] in the canvas's own units.

export type Box = [number, number, number, number];

/** Whether `inner` lies inside `outer`, allowing `tx` / `ty` canvas units past each side. */
export const holdsBox = (outer: Box, inner: Box, tx: number, ty: number): boolean =>
  inner[0] >= outer[0] - tx &&
  inner[1] >= outer[1] - ty &&
  inner[2] <= outer[2] + tx &&
  inner[3] <= outer[3] + ty;

/** Whether `inner` lies inside `outer`, within `share` of the outer box's own width / height. */
export const holdsShare = (outer: Box, inner: Box, share: number): boolean =>
  holdsBox(outer, inner, share * (outer[2] - outer[0]), share * (outer[3] - outer[1]));
