// RowHit must answer exactly as inside() for every point of its line: the frame's owners
// (frame-structure.ts) read the top and bottom sides through it.
import { describe, expect, it } from 'vitest';
import type { FrameShape } from './frame-shapes.ts';
import type { Pt } from './geometry.ts';
import { inside, RowHit } from './shape-hit.ts';

function shape(polys: Pt[][]): FrameShape {
  const xs = polys.flat().map((p) => p[0]);
  const ys = polys.flat().map((p) => p[1]);
  const box: FrameShape['box'] = [
    Math.min(...xs),
    Math.min(...ys),
    Math.max(...xs),
    Math.max(...ys),
  ];
  return { polys, box, cls: 'subject', group: 0, rect: false, runsPast: false, bare: true };
}

describe('RowHit', () => {
  it('agrees with inside() on random shapes, lines through their vertices included', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // Coordinates on a coarse grid, so lines often pass exactly through vertices and edges.
    const coord = () => Math.round(rand() * 20) / 2;
    let checked = 0;
    let hits = 0;
    for (let n = 0; n < 300; n++) {
      const polys: Pt[][] = [];
      for (let p = 0, count = 1 + Math.floor(rand() * 3); p < count; p++) {
        const poly: Pt[] = [];
        for (let k = 0, len = 2 + Math.floor(rand() * 8); k < len; k++)
          poly.push([coord(), coord()]);
        polys.push(poly);
      }
      const s = shape(polys);
      for (let r = 0; r < 12; r++) {
        const y = r < 6 ? coord() : rand() * 10;
        const row = new RowHit(s, y);
        for (let c = 0; c < 40; c++) {
          const x = c < 20 ? coord() : rand() * 10;
          const want = inside(s, x, y);
          expect(row.at(x), `shape ${n} at (${x}, ${y})`).toBe(want);
          checked++;
          if (want) hits++;
        }
      }
    }
    expect(checked).toBe(300 * 12 * 40);
    expect(hits).toBeGreaterThan(checked / 10);
  });
});
