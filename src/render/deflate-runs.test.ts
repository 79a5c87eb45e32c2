// The zlib stream written from colour runs (deflate-runs.ts) against the rows it stands for,
// built here the slow, obvious way (every pixel's bytes): inflated by Node's zlib (which checks
// the Adler-32 and rejects a wrong length or distance code) and read back by libvips, on real
// renders, on the shapes that take each path of the tokeniser, and on fuzzed run lists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { idatOf, referenceRows } from '../../test/support/png-rows.ts';
import { seededRandom as random } from '../eval/stats/prng.ts';
import type { ColourRuns } from './picture-stats.ts';
import { flattenAndMeasure } from './pixel-stats.ts';
import { pngEncoder } from './png-encode.ts';

const encode = await pngEncoder();

function runsOf(list: [colour: number, length: number][]): ColourRuns {
  return {
    colour: Int32Array.from(list.map(([c]) => c)),
    length: Int32Array.from(list.map(([, n]) => n)),
    count: list.length,
  };
}

/** Runs of a picture given pixel by pixel (colours packed r<<16|g<<8|b). */
function runsOfPixels(px: ArrayLike<number>): ColourRuns {
  const list: [number, number][] = [];
  for (let i = 0; i < px.length; i++) {
    const last = list[list.length - 1];
    if (last && last[0] === px[i]) last[1]++;
    else list.push([px[i]!, 1]);
  }
  return runsOf(list);
}

/** Inflates the PNG's stream (Adler checked by zlib) and compares it with the reference rows. */
function expectRows(runs: ColourRuns, width: number, height: number, what: string): Buffer {
  const png = encode(runs, width, height);
  const rows = inflateSync(idatOf(png));
  expect(rows.equals(referenceRows(runs, width, height)), what).toBe(true);
  return png;
}

describe('the deflate stream written from colour runs', () => {
  it('inflates to the same rows and decodes to the same pixels on real renders', async () => {
    const dir = join(import.meta.dirname, '../../test/fixtures/openclipart');
    const clipart = readdirSync(dir)
      .filter((f) => f.endsWith('.svg'))
      .slice(0, 3)
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    for (const svg of [...fluentEmoji(3).map((i) => i.svg), ...clipart]) {
      const { data, info } = await sharp(Buffer.from(svg), { density: 144 })
        .resize(256, 256, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { runs } = flattenAndMeasure(data, info.width, info.height, [255, 255, 255]);
      const png = expectRows(runs, info.width, info.height, 'real render');
      const back = await sharp(png).raw().toBuffer();
      expect(
        back.equals(
          referenceRows(runs, info.width, info.height).filter(
            (_, i) => i % (1 + 3 * info.width) !== 0,
          ),
        ),
      ).toBe(true);
    }
  });

  it('handles a single pixel, one column, one row, long runs and all one colour', () => {
    expectRows(runsOf([[0x123456, 1]]), 1, 1, '1×1');
    expectRows(runsOf([[0xabcdef, 7]]), 1, 7, 'one column, one colour');
    expectRows(runsOfPixels([1, 2, 2, 3, 0xffffff, 0xffffff, 7]), 1, 7, 'one column, mixed');
    expectRows(runsOf([[0x010203, 1000]]), 1000, 1, 'one row: a run of 1,000 > 258');
    for (const n of [86, 87, 88, 172, 173, 174]) {
      // 3(n − 1) bytes after the first pixel: 255, 258, 261 … cut into ≥ 3-byte pieces
      expectRows(runsOf([[0x0a0b0c, n]]), n, 1, `run of ${n}`);
    }
    expectRows(runsOf([[0xffffff, 640 * 200]]), 640, 200, 'all one colour (all transparent)');
  });

  it('codes every match length 3–258 and its extra bits (runs of 2–100 pixels)', () => {
    const list: [number, number][] = [];
    for (let n = 1; n <= 100; n++) list.push([(n * 0x10305) & 0xffffff, n]);
    expectRows(runsOf(list), 101, 50, 'runs of 1–100 across rows');
  });

  it('copies rows equal to the row above, rows partly equal and rows wider than the window', () => {
    for (const width of [5, 300, 10922, 10923, 12000]) {
      const height = 4;
      const px = new Int32Array(width * height);
      for (let x = 0; x < width; x++) px[x] = x % 7 < 3 ? 0xff0000 : (x * 31) & 0xffff;
      px.copyWithin(width, 0, width); // row 1 = row 0
      for (let x = 0; x < width; x++) px[2 * width + x] = x % 5 === 0 ? 0x00ff00 : px[x]!; // partly
      px.fill(0x00ff00, 3 * width, 4 * width); // starts in the colour row 2 ended in
      expectRows(runsOfPixels(px), width, height, `width ${width}`);
    }
  });

  it('copies a motif repeated along a row and down the picture, as small as zlib finds it', () => {
    // Polka dots: each row differs from the one above, but repeats itself every 20 pixels
    // and the picture repeats every 20 rows (30 KB back, inside the window).
    const w = 500;
    const h = 120;
    const px = new Int32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const dx = (x % 20) - 9.5;
        const dy = (y % 20) - 9.5;
        const d = dx * dx + dy * dy;
        px[y * w + x] = d < 30 ? 0xc0185a : d < 40 ? 0xd07090 : 0xfdf5e6;
      }
    }
    const runs = runsOfPixels(px);
    const png = expectRows(runs, w, h, 'polka dots');
    const zlib1 = deflateSync(referenceRows(runs, w, h), { level: 1 }).length;
    expect(idatOf(png).length).toBeLessThan(1.1 * zlib1);
  });

  it('writes noise (every pixel different) in more than one block', () => {
    const w = 211;
    const h = 157;
    const next = random(7);
    const px = Int32Array.from({ length: w * h }, () => Math.floor(next() * 0x1000000));
    expectRows(runsOfPixels(px), w, h, 'noise');
  });

  it('matches the reference on fuzzed run lists', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const w = 1 + Math.floor(next() * 90);
      const h = 1 + Math.floor(next() * 40);
      const palette = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        Math.floor(next() * 0x1000000),
      );
      const px = new Int32Array(w * h);
      for (let p = 0; p < w * h; ) {
        if (p >= w && next() < 0.3) {
          // copy a stretch of the row above, sometimes across the row's end
          const n = Math.min(w * h - p, 1 + Math.floor(next() * 2 * w));
          for (let k = 0; k < n; k++, p++) px[p] = px[p - w]!;
          continue;
        }
        const n = Math.min(w * h - p, 1 + Math.floor(next() ** 3 * 3 * w));
        px.fill(palette[Math.floor(next() * palette.length)]!, p, p + n);
        p += n;
      }
      // Split some runs in two (same colour side by side), as a caller is free to.
      const runs = runsOfPixels(px);
      const list: [number, number][] = [];
      for (let i = 0; i < runs.count; i++) {
        const n = runs.length[i]!;
        if (n > 1 && next() < 0.2) {
          const k = 1 + Math.floor(next() * (n - 1));
          list.push([runs.colour[i]!, k], [runs.colour[i]!, n - k]);
        } else list.push([runs.colour[i]!, n]);
      }
      expectRows(runsOf(list), w, h, `seed ${seed}, ${w}×${h}`);
    }
  });

  it('ends with the Adler-32 of the rows, big-endian', () => {
    const next = random(3);
    const px = Int32Array.from({ length: 400 * 30 }, (_, i) =>
      i % 400 < 200 ? 0xfefdfc : Math.floor(next() * 0x1000000),
    );
    const runs = runsOfPixels(px);
    const rows = referenceRows(runs, 400, 30);
    let a = 1;
    let b = 0;
    for (const byte of rows) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
    const idat = idatOf(encode(runs, 400, 30));
    expect(idat.readUInt32BE(idat.length - 4)).toBe(((b << 16) | a) >>> 0);
    expect([idat[0], idat[1]]).toEqual([0x78, 0x01]); // deflate, 32 KiB window
  });

  it('uses fixed codes when they are shorter and dynamic codes on a drawing', () => {
    const blockType = (png: Buffer) => (idatOf(png)[2]! >> 1) & 3; // after the 2-byte header
    expect(blockType(encode(runsOf([[0xffffff, 16]]), 4, 4))).toBe(1);
    const w = 64;
    const next = random(11);
    const px = Int32Array.from({ length: w * w }, (_, i) =>
      (i % w) - 32 < (i / w) % 9 ? 0xffffff : 0x202020 + Math.floor(next() * 40),
    );
    const png = expectRows(runsOfPixels(px), w, w, 'drawing');
    expect(blockType(png)).toBe(2);
  });

  it('refuses runs that do not cover the picture exactly', () => {
    expect(() => encode(runsOf([[0, 5]]), 3, 2)).toThrow(/colour runs/);
    expect(() => encode(runsOf([[0, 7]]), 3, 2)).toThrow(/colour runs/);
  });
});
