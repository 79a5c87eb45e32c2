// measurePicture on small hand-built rasters: the dominant colour and ink against it, and
// the edge rule — a subject cut by the frame is cut; a band, a spanning region (wavy hills,
// a gradient sky) or a row of planks across the canvas is not.
import { describe, expect, it } from 'vitest';
import { cutSpread, measurePicture } from './picture-stats.ts';

type RGB = [number, number, number];

function raster(w: number, h: number, paint: (x: number, y: number) => RGB): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set(paint(x, y), (y * w + x) * 3);
  return out;
}

const SKY: RGB = [135, 206, 235];
const GROUND: RGB = [60, 140, 60];
const RED: RGB = [200, 30, 30];
const W = 100;

describe('measurePicture', () => {
  it('measures ink against the dominant colour, not against white', () => {
    const pic = measurePicture(
      raster(W, W, (x, y) => ((x - 50) ** 2 + (y - 50) ** 2 < 100 ? RED : SKY)),
      W,
      W,
      8,
    );
    expect(pic.dominant).toEqual(SKY);
    expect(pic.ink).toBeGreaterThan(0.02);
    expect(pic.ink).toBeLessThan(0.04);
    expect(pic.edgeInk).toBe(0);
    expect(pic.edgeCut).toBe(0);
  });

  it('measures a picture over 1024² pixels (its runs in arrays of its own) as a small one', () => {
    const big = measurePicture(
      raster(1100, 1000, (x, y) => (x >= 500 && x < 600 && y >= 400 && y < 500 ? RED : SKY)),
      1100,
      1000,
      8,
    );
    expect(big.dominant).toEqual(SKY);
    expect(big.ink).toBeCloseTo((100 * 100) / (1100 * 1000), 12);
    // The shared scratch still serves a small picture correctly afterwards.
    const small = measurePicture(
      raster(W, W, (x) => (x < 30 ? RED : SKY)),
      W,
      W,
      8,
    );
    expect(small.ink).toBeCloseTo(0.3, 12);
  });

  it('calls a disc pushed over the left edge cut, on white and on a sky', () => {
    for (const ground of [[255, 255, 255] as RGB, SKY]) {
      const pic = measurePicture(
        raster(W, W, (x, y) => (x ** 2 + (y - 50) ** 2 < 900 ? RED : ground)),
        W,
        W,
        8,
      );
      expect(pic.edgeCut).toBeGreaterThan(0.1);
      expect(pic.edgeCutBySide).toEqual([0, 0, 0, expect.any(Number)]);
      expect(pic.edgeCutBySide[3]).toBeGreaterThan(50);
    }
  });

  it('does not call a ground strip, wavy hills or a bridge deck with planks cut', () => {
    const strip = raster(W, W, (_x, y) => (y > 70 ? GROUND : SKY));
    const hills = raster(W, W, (x, y) => (y > 60 + 12 * Math.sin(x / 8) ? GROUND : SKY));
    const bridge = raster(W, W, (x, y) =>
      y >= 40 && y < 48 ? (x % 12 === 0 ? [90, 60, 40] : [140, 100, 80]) : SKY,
    );
    for (const img of [strip, hills, bridge]) {
      const pic = measurePicture(img, W, W, 8);
      expect(pic.edgeInk).toBeGreaterThan(0);
      expect(pic.edgeCut).toBe(0);
    }
  });

  it('keeps a gradient sky whole but still sees a subject cut in front of it', () => {
    const sky = (y: number): RGB => [255 - y, 160, 100 + y];
    const clean = measurePicture(
      raster(W, W, (_x, y) => sky(y)),
      W,
      W,
      8,
    );
    expect(clean.edgeCut).toBe(0);
    const cut = measurePicture(
      raster(W, W, (x, y) => ((x - W) ** 2 + (y - 50) ** 2 < 400 ? [20, 20, 20] : sky(y))),
      W,
      W,
      8,
    );
    expect(cut.edgeCutBySide[1]).toBeGreaterThan(30);
    expect(cut.edgeCutLargest).toBeCloseTo(cut.edgeCut, 12);
  });

  it('cuts a tiling into many small pieces, a subject into one large one', () => {
    const tiles = measurePicture(
      raster(W, W, (x, y) => [(Math.floor(x / 5) * 37) % 256, (Math.floor(y / 5) * 91) % 256, 128]),
      W,
      W,
      8,
    );
    expect(tiles.edgeCutRegions).toBeGreaterThan(20);
    expect(tiles.edgeCutLargest).toBeLessThan(0.03);
    const subject = measurePicture(
      raster(W, W, (x, y) => (x ** 2 + (y - 50) ** 2 < 900 ? RED : [255, 255, 255])),
      W,
      W,
      8,
    );
    expect(subject.edgeCutRegions).toBe(1);
    expect(subject.edgeCutLargest).toBeGreaterThan(0.1);
  });

  it('reports nothing for an empty raster', () => {
    expect(measurePicture(new Uint8Array(0), 0, 0, 8).ink).toBe(0);
  });

  it('does not call scenery cut: a ground short of one side, a strip along an edge, an outline drawn to the frame (issue 25)', () => {
    const WOOD: RGB = [140, 100, 60];
    const shortGround = raster(W, W, (x, y) => (y > 80 && x < 85 ? GROUND : SKY));
    const kerb = raster(W, W, (x, y) => (y < 4 && x > 10 && x < 90 ? WOOD : SKY));
    const card = raster(W, W, (x, y) =>
      (x === 20 || x === 80) && y >= 20 ? WOOD : y === 20 && x >= 20 && x <= 80 ? WOOD : SKY,
    );
    // A short line one pixel deep along the top (a diagram's grid line ending on the frame).
    const edgeLine = raster(W, W, (x, y) => (y === 0 && x >= 40 && x < 48 ? WOOD : SKY));
    for (const img of [shortGround, kerb, card, edgeLine]) {
      const pic = measurePicture(img, W, W, 8);
      expect(pic.edgeInk).toBeGreaterThan(0);
      expect(pic.edgeCut).toBe(0);
      expect(pic.edgeScenery).toBeGreaterThan(0);
    }
    // A disc pushed over the same edge on the same ground is still cut.
    const cut = measurePicture(
      raster(W, W, (x, y) =>
        (x - 50) ** 2 + (y - 100) ** 2 < 700 ? RED : y > 80 && x < 85 ? GROUND : SKY,
      ),
      W,
      W,
      8,
    );
    expect(cut.edgeCut).toBeGreaterThan(0.05);
  });

  it('cuts a pale subject on a pale ground: its antialiased rim does not join it to the ground (issue 25)', () => {
    const CREAM: RGB = [242, 232, 207];
    const RIM: RGB = [248, 243, 231]; // half way: within one region step of both
    const d = (x: number, y: number) => Math.sqrt(x ** 2 + (y - 50) ** 2);
    const pic = measurePicture(
      raster(W, W, (x, y) => (d(x, y) < 29 ? [255, 255, 255] : d(x, y) < 30 ? RIM : CREAM)),
      W,
      W,
      8,
    );
    expect(pic.dominant).toEqual(CREAM);
    expect(pic.edgeCutLargest).toBeGreaterThan(0.1);
  });

  it('still cuts a subject pushed nearly out of the frame: a sliver a sixth as deep as its cut (issue 25)', () => {
    const pic = measurePicture(
      raster(W, W, (x, y) => (y < 5 && x >= 30 && x < 60 ? RED : [255, 255, 255])),
      W,
      W,
      8,
    );
    expect(pic.edgeCutLargest).toBeGreaterThan(0.05);
    expect(pic.edgeScenery).toBe(0);
  });

  it('does not call a shape the frame only grazes, nor one drawn edge to edge, cut (issue 25)', () => {
    const WHITE: RGB = [255, 255, 255];
    // A wide rounded body whose bottom just touches the frame (a padlock, a tower's feet).
    const grazed = raster(W, W, (x, y) =>
      (x - 50) ** 2 / 36 ** 2 + (y - 69.5) ** 2 / 30 ** 2 < 1 ? RED : WHITE,
    );
    // A narrow card shaded from red to orange, from the top to 95% of the way down (a flat
    // one would already be a band: its columns are ≥ 90% ink of one colour).
    const card = raster(W, W, (x, y) =>
      x >= 40 && x < 60 && y < 95 ? [255, 40 + Math.round(1.6 * y), 0] : WHITE,
    );
    for (const img of [grazed, card]) {
      const pic = measurePicture(img, W, W, 8);
      expect(pic.edgeInk).toBeGreaterThan(0);
      expect(pic.edgeCut).toBe(0);
      expect(pic.edgeScenery).toBeGreaterThan(0);
    }
    // The same body pushed down through the frame is cut.
    const sliced = raster(W, W, (x, y) =>
      (x - 50) ** 2 / 36 ** 2 + (y - 95) ** 2 / 30 ** 2 < 1 ? RED : WHITE,
    );
    expect(measurePicture(sliced, W, W, 8).edgeCut).toBeGreaterThan(0.1);
  });

  it('measures how far round the frame the cut spreads: a tiling all round, a subject on one stretch', () => {
    const tiles = measurePicture(
      raster(W, W, (x, y) => [(Math.floor(x / 5) * 37) % 256, (Math.floor(y / 5) * 91) % 256, 128]),
      W,
      W,
      8,
    );
    expect(tiles.edgeCutSpread).toBeGreaterThan(0.9);
    // A subject of 16 bands of two colours, pushed over the left edge on rows 20–51.
    const banded = measurePicture(
      raster(W, W, (x, y) =>
        x < 20 && y >= 20 && y < 52 ? (Math.floor(y / 2) % 2 ? RED : GROUND) : [255, 255, 255],
      ),
      W,
      W,
      8,
    );
    expect(banded.edgeCutRegions).toBeGreaterThanOrEqual(12);
    expect(banded.edgeCutSpread).toBeCloseTo(32 / (4 * (W - 1)), 6);
    expect(cutSpread(new Int32Array(8))).toBe(0);
    // Marks at both ends of the perimeter are next to each other round the corner.
    expect(cutSpread(Int32Array.from([1, 0, 0, 0, 0, 0, 0, 1]))).toBe(2 / 8);
  });
});
