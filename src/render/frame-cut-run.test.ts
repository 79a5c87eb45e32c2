// The longest cut round the frame (frame-structure.ts `cutRun`): runs of points owned by cut
// subjects, one part's runs joined across a gap no longer than either.
import { describe, expect, it } from 'vitest';
import { cutRun } from './frame-structure.ts';

/** A frame of `n` points, null (no cut subject) everywhere but `runs` ([from, length, part]). */
const frame = (n: number, ...runs: [number, number, number][]) => {
  const parts = new Array<number | null>(n).fill(null);
  for (const [at, len, part] of runs) for (let k = 0; k < len; k++) parts[(at + k) % n] = part;
  return parts;
};

describe('cutRun', () => {
  it('joins two legs of one figure a step apart, counting only what they own', () => {
    expect(cutRun(frame(512, [300, 4, 6], [305, 4, 6]))).toBe(8);
    // Read round the circle: across the frame's first point.
    expect(cutRun(frame(512, [508, 4, 6], [1, 4, 6]))).toBe(8);
  });

  it('keeps apart runs of different parts, and runs further apart than they are long', () => {
    expect(cutRun(frame(512, [300, 4, 6], [305, 4, 7]))).toBe(4);
    // A table's legs: four points each, twenty apart.
    expect(cutRun(frame(512, [300, 4, 6], [324, 4, 6]))).toBe(4);
  });

  it('reads one run as it is, and a frame cut all round as whole', () => {
    expect(cutRun(frame(512, [10, 9, 1], [100, 3, 1]))).toBe(9);
    expect(cutRun(frame(512))).toBe(0);
    expect(cutRun(frame(8, [0, 8, 2]))).toBe(8);
    // A part numbered -1 (a shape outside the drawing's top-level parts) owns its points too.
    expect(cutRun(frame(512, [40, 7, -1]))).toBe(7);
  });
});
