// inkBox must find the box sharp's trim({ background: white, threshold: 1 }) found (libvips
// find_trim: a 3×3 median per band, edges copied, > 1 away from 255): compared here on random
// pictures built to sit on its edges — specks a median removes, pairs and triples of pixels,
// samples of 252–255 around the threshold, ink touching the picture's borders, thin strips.
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../eval/stats/prng.ts';
import sharp from '../render/sharp.ts';
import { inkBox } from './ink-box.ts';

async function sharpBox(px: Buffer, width: number, height: number, channels: 1 | 3) {
  const { info } = await sharp(px, { raw: { width, height, channels } })
    .trim({ background: '#ffffff', threshold: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    left: 0 - (info.trimOffsetLeft ?? 0),
    top: 0 - (info.trimOffsetTop ?? 0),
    width: info.width,
    height: info.height,
  };
}

describe('inkBox', () => {
  it('finds the box sharp trim found, on 300 random pictures', async () => {
    const rnd = random(36);
    const pick = (n: number) => Math.floor(rnd() * n);
    for (let i = 0; i < 300; i++) {
      const width = 3 + pick(i % 3 === 0 ? 4 : 40);
      const height = 3 + pick(i % 3 === 1 ? 4 : 40);
      const channels = i % 4 === 0 ? 1 : 3;
      const px = Buffer.alloc(width * height * channels, 255);
      const near = [252, 253, 254, 255];
      for (let k = pick(12); k > 0; k--) {
        // A blob of 1–3 × 1–3 pixels, anywhere (borders included), in one band or all.
        const x0 = pick(width);
        const y0 = pick(height);
        const bw = 1 + pick(3);
        const bh = 1 + pick(3);
        const band = pick(channels + 1);
        const v = rnd() < 0.5 ? near[pick(4)]! : pick(256);
        for (let y = y0; y < Math.min(height, y0 + bh); y++)
          for (let x = x0; x < Math.min(width, x0 + bw); x++)
            for (let b = 0; b < channels; b++)
              if (band === channels || band === b) px[(y * width + x) * channels + b] = v;
      }
      const want = await sharpBox(px, width, height, channels);
      const got = inkBox(px, width, height, channels) ?? { left: 0, top: 0, width, height };
      const picture = { i, size: [width, height], channels };
      expect({ picture, box: got }).toEqual({ picture, box: want });
    }
  });

  it('has no box for a picture that is white or only specks a median removes', () => {
    const px = Buffer.alloc(20 * 10 * 3, 255);
    expect(inkBox(px, 20, 10, 3)).toBeUndefined();
    px.fill(0, (4 * 20 + 7) * 3, (4 * 20 + 8) * 3); // one black pixel
    expect(inkBox(px, 20, 10, 3)).toBeUndefined();
  });
});
