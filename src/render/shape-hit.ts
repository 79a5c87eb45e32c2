// Whether a point lies in a filled shape of the frame reading (frame-shapes.ts): nonzero
// winding over its subpaths, after a cheap box test. Shared by who owns the frame
// (frame-structure.ts) and the close-up reading (close-up.ts).
import type { Pt } from './geometry.ts';

/**
 * What a hit test needs of a shape: its box and subpaths. Structural, not frame-shapes.ts's
 * FrameShape, so that the frame rules frame-shapes.ts imports (frame-silhouettes.ts) can use
 * it without an import cycle.
 */
export interface Filled {
  box: readonly [number, number, number, number];
  polys: Pt[][];
}

/** Nonzero winding of a point over a shape's subpaths (any shape with a box and polygons). */
export function inside(s: Filled, x: number, y: number): boolean {
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

/**
 * inside() for many points on one horizontal line: the edges crossing the line are found
 * once, and each point sums only those (the others add nothing to its winding). The same
 * tests and products as inside(), in the same order, so the same answer to the bit — the
 * frame's top and bottom sides sample 128 points each on one line.
 */
export class RowHit {
  /** Per crossing edge: xi, yi, xj, yj, and +1 (upward) or −1 (downward). */
  private readonly edges: number[] = [];

  constructor(
    private readonly s: Filled,
    private readonly y: number,
  ) {
    for (const poly of s.polys) {
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const [xi, yi] = poly[i]!;
        const [xj, yj] = poly[j]!;
        if (yj <= y) {
          if (yi > y) this.edges.push(xi, yi, xj, yj, 1);
        } else if (yi <= y) this.edges.push(xi, yi, xj, yj, -1);
      }
    }
  }

  /** Whether (x, this line's y) lies in the shape: inside(s, x, y). */
  at(x: number): boolean {
    const y = this.y;
    const [x0, y0, x1, y1] = this.s.box;
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const e = this.edges;
    let wind = 0;
    for (let k = 0; k < e.length; k += 5) {
      const xi = e[k]!;
      const yi = e[k + 1]!;
      const xj = e[k + 2]!;
      const yj = e[k + 3]!;
      const c = (xi - xj) * (y - yj) - (x - xj) * (yi - yj);
      if (e[k + 4] === 1) {
        if (c > 0) wind++;
      } else if (c < 0) wind--;
    }
    return wind !== 0;
  }
}
