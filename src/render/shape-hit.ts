// Whether a point lies in a filled shape of the frame reading (frame-shapes.ts): nonzero
// winding over its subpaths, after a cheap box test. Shared by who owns the frame
// (frame-structure.ts) and the close-up reading (close-up.ts).
import type { FrameShape } from './frame-shapes.ts';

/** Nonzero winding of a point over a shape's subpaths. */
export function inside(s: FrameShape, x: number, y: number): boolean {
  const [x0, y0, x1, y1] = s.box;
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  let wind = 0;
  for (const poly of s.polys) {
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i]!;
      const [xj, yj] = poly[j]!;
      if (yj <= y) {
        if (yi > y && (xi - xj) * (y - yj) - (x - xj) * (yi - yj) > 0) wind++;
      } else if (yi <= y && (xi - xj) * (y - yj) - (x - xj) * (yi - yj) < 0) wind--;
    }
  }
  return wind !== 0;
}
