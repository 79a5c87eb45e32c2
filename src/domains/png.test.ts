import { describe, expect, it } from 'vitest';
import sharp from '../render/sharp.ts';
import { pngResult } from './png.ts';

// An RGBA picture: white everywhere, alpha given per pixel (w × h).
async function rgba(w: number, h: number, px: (x: number, y: number) => number[]) {
  const raw = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(px(x, y), (y * w + x) * 4);
  return sharp(raw, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
}

describe('pngResult blank rule', () => {
  it('is blank when the picture is one flat colour once seen on white (issue 35)', async () => {
    // What `digraph {}` gives: white, with soft transparent edges (alpha not flat).
    const box = await rgba(11, 11, (x, y) =>
      x === 0 || y === 0 ? [255, 255, 255, 114] : [255, 255, 255, 255],
    );
    const r = await pngResult(box, performance.now(), {});
    expect(r.ok ? 'ok' : r.error.code).toBe('blank');
    // Fully transparent: nothing drawn.
    const clear = await rgba(8, 8, () => [0, 0, 0, 0]);
    expect(((await pngResult(clear, 0, {})) as { error?: { code: string } }).error?.code).toBe(
      'blank',
    );
  });

  it('keeps a black drawing on a transparent background (its colour is only in alpha)', async () => {
    const line = await rgba(8, 8, (x, y) => (x === y ? [0, 0, 0, 255] : [0, 0, 0, 0]));
    expect((await pngResult(line, 0, {})).ok).toBe(true);
  });
});
