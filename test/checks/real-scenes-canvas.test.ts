// The first real set's cut crops are labelled by the picture a judge sees (issue 40 item 2):
// the renderer fits a frame onto a square canvas and paints what lies beyond the viewBox
// into the margins, so a crop that is not square shows more than the crop. Each cut crop is
// either square in user units (the picture is the crop: `seen` starts "cropped square") or,
// if not, was looked at on the canvas and its `seen` says what the canvas shows ("on the
// canvas"). No rendering here; real-scenes.slow.test.ts measures them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realSceneManifest } from './real-scenes.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/scenes');

/** Width over height of a crop, in the vendored file's user units. */
function aspect(file: string, [x0, y0, x1, y1]: number[]): number {
  const tag = /<svg\b[^>]*>/.exec(readFileSync(join(DIR, file), 'utf8'))![0];
  const [, , w, h] = /\sviewBox="([^"]+)"/
    .exec(tag)![1]!
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  return ((x1! - x0!) * w!) / ((y1! - y0!) * h!);
}

describe('first real set: cut crops labelled on the canvas picture', () => {
  const cuts = Object.entries(realSceneManifest().cuts).filter(
    ([, c]) => (c.truth ?? 'cut') === 'cut',
  );

  it('makes square the crops whose canvas no longer showed their cut', () => {
    const squared = cuts.filter(([, c]) => c.seen.startsWith('cropped square'));
    // 13: seven showed their subject whole on the canvas, six a smaller part cut elsewhere.
    expect(squared.length).toBe(13);
    for (const [name, c] of squared) expect(aspect(c.of, c.crop), name).toBeCloseTo(1, 1);
  });

  it('describes every other cut crop that is not square by what the canvas shows', () => {
    const wide = cuts.filter(([, c]) => Math.abs(Math.log(aspect(c.of, c.crop))) > Math.log(1.15));
    const unlooked = wide.filter(([, c]) => !c.seen.startsWith('on the canvas'));
    expect(unlooked.map(([n]) => n)).toEqual([]);
    expect(wide.length).toBe(26);
  });
});
