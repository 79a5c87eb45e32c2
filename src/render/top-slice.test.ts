// A subject sliced by the top edge (issue 40): a vase's neck run past the top by a little,
// standing on a table, clear of the sides — versus a drape, a canopy, a column and a foam
// crest that reach the top by design. Unit figures, then the frame reading on the
// sanitiser's parse, as the worker reads it.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { slicedByTop, subjectSlicedByTop } from './top-slice.ts';

const F: [number, number, number, number] = [0, 0, 500, 500];
const frame = (body: string) => frameOf(body, '0 0 500 500');
const WALL = '<rect width="500" height="500" fill="#5b3d25"/>';
const TABLE = '<rect y="360" width="500" height="140" fill="#3d2412"/>';
// A vase 160 wide whose neck runs 30 past the top (under a tenth of its height), on the table.
const VASE =
  '<path d="M150 -30 L230 -30 L230 120 Q300 200 270 360 L110 360 Q80 200 150 120 Z" fill="#2a5cc8"/>';

describe('top slice', () => {
  it('reads a box clear of the sides and short of the bottom as sliced by the top', () => {
    expect(slicedByTop([110, -30, 270, 360], F)).toBe(true);
    // A drape meets a side; a column reaches the bottom.
    expect(slicedByTop([0, -30, 160, 360], F)).toBe(false);
    expect(slicedByTop([200, -30, 260, 500], F)).toBe(false);
  });

  it('needs a body hanging into the picture and running past the top', () => {
    expect(subjectSlicedByTop([110, -30, 270, 360], F)).toBe(true);
    // Drawn up to the top (a lamp, a drape), not past it.
    expect(subjectSlicedByTop([110, -5, 270, 360], F)).toBe(false);
    // A foam crest along the top edge: runs past it, but does not hang into the picture.
    expect(subjectSlicedByTop([30, -5, 110, 5], F)).toBe(false);
  });

  it('gives a vase whose neck the top slices a subject run, and a whole vase none', () => {
    const cut = frame(WALL + TABLE + VASE);
    expect(cut.subjectRun).toBeGreaterThan(MIN);
    const whole = frame(WALL + TABLE + VASE.replaceAll('-30', '60'));
    expect(whole.subjectRun).toBe(0);
  });

  it('still reads a drape hung from the top at a side as scenery', () => {
    const drape = '<path d="M0 -30 L180 -30 Q120 200 150 380 L0 380 Z" fill="#a3161f"/>';
    expect(frame(WALL + TABLE + drape).subjectRun).toBe(0);
  });
});
