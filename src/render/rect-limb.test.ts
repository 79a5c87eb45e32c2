// A figure built partly of rects, pushed off one side: its rects there are limbs cut with
// it, not shelves or beams (rect-limb.ts). Read on the sanitiser's parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';

// A slope under a sky, both bands.
const SCENE =
  '<rect width="512" height="512" fill="#7ac"/><path d="M0 320 Q200 290 512 330 L512 512 L0 512 Z" fill="#585"/>';
// A walker ≈ 60 × 220 at (x, y): pack, jacket, head and hair, two shins and two boots as rects.
const walker = (x: number, y: number) =>
  `<g transform="translate(${x} ${y})"><rect x="-8" y="40" width="50" height="70" rx="12" fill="#c33"/><rect x="5" y="50" width="40" height="80" rx="8" fill="#38c"/><circle cx="25" cy="30" r="20" fill="#fc9"/><path d="M5 22 Q25 0 45 22 Z" fill="#852"/><rect x="8" y="125" width="15" height="90" fill="#444"/><rect x="28" y="125" width="15" height="90" fill="#444"/><rect x="4" y="210" width="22" height="12" fill="#321"/><rect x="26" y="210" width="22" height="12" fill="#321"/></g>`;

describe('rects that are limbs of a figure', () => {
  it('reads a walker pushed off the bottom through his shins as cut', () => {
    // His shins cross the bottom edge a step apart, his boots wholly past it: a tenth of him.
    expect(frameOf(SCENE + walker(210, 312)).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('keeps him whole standing on the slope, and drawn with his boots on the edge', () => {
    expect(frameOf(SCENE + walker(210, 250)).cutRun).toBe(0);
    // Boots running a hair past the edge: drawn up to it, not sliced.
    expect(frameOf(SCENE + walker(210, 292)).cutRun).toBe(0);
  });

  it('keeps furniture built of rects scenery where it runs off a side', () => {
    // A bookcase of boards and uprights running off the bottom by a tenth: all rects.
    const bookcase =
      '<g><rect x="300" y="200" width="12" height="340" fill="#642"/><rect x="440" y="200" width="12" height="340" fill="#642"/><rect x="300" y="260" width="152" height="10" fill="#753"/><rect x="300" y="360" width="152" height="10" fill="#753"/></g>';
    expect(frameOf(SCENE + bookcase).cutRun).toBe(0);
  });
});
