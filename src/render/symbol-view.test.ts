// A <symbol> with its own viewBox, drawn through <use> with a width and a height: the frame
// reading places it where librsvg draws it (fitted into the use's viewport), not in the
// symbol's raw units at the use's x and y.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { symbolViewBox } from './symbol-view.ts';

const BG =
  '<rect width="512" height="512" fill="#ddd"/><rect y="400" width="512" height="112" fill="#975"/>';
// A leaf drawn round its stalk at the symbol's origin, upwards: its own units run from -90 to
// 10 in y, so read raw at the use's y it would start 90 units above where it shows.
const LEAF =
  '<defs><symbol id="leaf" viewBox="-50 -90 100 100"><path d="M0 0 Q-45 -40 -10 -88 Q45 -50 0 0 Z" fill="#2a5"/><circle cx="0" cy="-45" r="8" fill="#fff"/></symbol></defs>';

describe('symbol viewBox', () => {
  it('fits the viewBox into the use viewport, centred and scaled to meet', () => {
    // 100 × 100 units into 120 × 120 at 1.2, the viewBox's corner at the viewport's.
    expect(symbolViewBox({ viewBox: '-50 -90 100 100' }, { width: '120', height: '120' }, [0, 0, 500, 500])).toEqual([1.2, 0, 0, 1.2, 60, 108]); // biome-ignore format: one call
    // No viewBox: the symbol's content is in the use's own units.
    expect(symbolViewBox({}, { width: '120' }, [0, 0, 500, 500])).toBeNull();
    // No size on the use: the viewport is the drawing's whole viewBox (100 %); a wide
    // viewport centres a square viewBox across it.
    const m = symbolViewBox({ viewBox: '0 0 10 10' }, { height: '50%' }, [0, 0, 400, 200]);
    expect(m).toEqual([10, 0, 0, 10, 150, 0]);
  });

  it('reads a leaf placed inside the frame as whole, and one placed past the top as cut', () => {
    // Shown from y = 40 to 160: whole (read raw it ran 50 units past the top).
    const whole = frameOf(
      `${LEAF}${BG}<use href="#leaf" x="200" y="40" width="120" height="120"/>`,
    );
    expect(whole.subjectRun).toBe(0);
    expect(whole.cutRun).toBe(0);
    // Shown from y = -60 to 60: half of it past the top, cut.
    const cut = frameOf(`${LEAF}${BG}<use href="#leaf" x="200" y="-60" width="120" height="120"/>`);
    expect(cut.cutRun).toBeGreaterThanOrEqual(MIN);
  });
});
