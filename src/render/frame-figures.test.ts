// Figures of bare pieces (issue 40): a drawing of ungrouped top-level shapes has no group to
// say which shapes make one subject. Pieces drawn over one another are judged as the figure
// they make: a tower's shaft continuing its tank down out of the frame is a close-up of the
// tower, a dragonfly's abdomen segments running off a side are a subject cut, not streaks
// of the sky. Read on the sanitiser's parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';

const BG = '<rect width="512" height="512" fill="#234"/>';

describe('frame figures of bare pieces', () => {
  it('reads a shaft continuing its tank down out of the frame as a close-up', () => {
    // The shaft alone reaches under half-way up: by itself it is a subject sliced by the
    // bottom edge, and was flagged so.
    const tank = '<ellipse cx="256" cy="170" rx="130" ry="120" fill="#eee"/>';
    const shaft = '<path d="M180 235 L332 235 L340 900 L172 900 Z" fill="#ddd"/>';
    const f = frameOf(BG + tank + shaft);
    expect(f.cutRun).toBe(0);
    expect(f.closeUpRun).toBeGreaterThanOrEqual(MIN);
    // The same tank pushed off the left side with its shaft is half a tower, sliced.
    const left = frameOf(
      BG +
        '<ellipse cx="20" cy="150" rx="130" ry="110" fill="#eee"/><path d="M-26 240 L66 240 L66 400 L-26 400 Z" fill="#ddd"/>',
    );
    expect(left.cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('keeps the insides of a glass sliced by the bottom edge cut', () => {
    // The glass body alone reads as a close-up; what is drawn inside it is judged by itself.
    const glass = '<path d="M140 200 L372 200 L372 800 L140 800 Z" fill="#dde" opacity="0.9"/>';
    const ice = '<path d="M170 330 L340 330 L340 700 L170 700 Z" fill="#bbd"/>';
    const straw = '<path d="M320 40 L340 40 L340 420 L320 420 Z" fill="#226"/>';
    expect(frameOf(BG + glass + ice + straw).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('reads abdomen segments running off a side as a subject cut, not streaks of the sky', () => {
    const thorax = '<ellipse cx="330" cy="256" rx="50" ry="30" fill="#336"/>';
    // Paths, as drawn by hand (six bare discs side by side would read as a scatter).
    const segments = [400, 460, 520, 580, 640]
      .map(
        (x) =>
          `<path d="M${x - 36} 256 L${x - 20} 240 L${x + 20} 240 L${x + 36} 256 L${x + 20} 272 L${x - 20} 272 Z" fill="#447"/>`,
      )
      .join('');
    const f = frameOf(BG + thorax + segments);
    expect(f.cutRun).toBeGreaterThanOrEqual(MIN);
    // One lone streak drawn on the sky (a cloud running off the side) is still the sky's.
    const cloud = '<path d="M440 256 L470 240 L560 240 L580 256 L560 272 L470 272 Z" fill="#fff"/>';
    expect(frameOf(BG + cloud).cutRun).toBe(0);
  });

  it('reads layers nested in one another as one piece, not a tiling, and tiles as a tiling', () => {
    // An island drawn in twelve layers (rim, lawns, paths), each inside the one before, cut
    // by the right edge: each layer owns a little of the frame, the island all of it.
    const layers = Array.from({ length: 12 }, (_, k) => {
      const [y0, y1] = [100 + 12 * k, 420 - 12 * k];
      return `<path d="M${200 + 10 * k} ${y0} L700 ${y0} L700 ${y1} L${200 + 10 * k} ${y1} Z" fill="#${k % 2 ? '6c4' : '8e6'}"/>`;
    }).join('');
    const island = frameOf(BG + layers);
    expect(island.tiling).toBe(false);
    expect(island.cutRun).toBeGreaterThanOrEqual(MIN);
    // Fourteen tiles side by side running off the same edge are a tiling.
    const tiles = Array.from(
      { length: 14 },
      (_, k) =>
        `<path d="M490 ${10 + 36 * k} L530 ${10 + 36 * k} L530 ${40 + 36 * k} L490 ${40 + 36 * k} Z" fill="#c93"/>`,
    ).join('');
    expect(frameOf(BG + tiles).tiling).toBe(true);
  });
});
