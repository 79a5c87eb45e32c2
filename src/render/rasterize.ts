// librsvg (through sharp) turns a sanitised, fitted SVG into pixels; we flatten them on
// the background, measure them, and encode the PNG the judge will see (png-encode.ts). Runs inside a
// render worker. sharp is chosen over resvg-js/skia/CairoSVG: measured faster here,
// crash-free on 2,000 real icons and flat in memory (docs/rendering.md).

import { RENDER_DENSITY } from './fit.ts';
import { flattenAndMeasure } from './pixel-stats.ts';
import { pngEncoder } from './png-encode.ts';
import sharp from './sharp.ts';
import type { PixelStats } from './types.ts';

export interface Raster {
  png: Buffer;
  width: number;
  height: number;
  pixels: PixelStats;
}

const WHITE = [255, 255, 255] as const;
// The default background and its spellings, known without asking libvips (a first sharp
// call just to read "white" is ~7 ms of a cold worker's first render).
const KNOWN_BACKGROUNDS: [string, readonly [number, number, number]][] = [
  ['white', WHITE],
  ['#ffffff', WHITE],
  ['#fff', WHITE],
];
const backgrounds = new Map(KNOWN_BACKGROUNDS);

/** A CSS colour as RGB, parsed by sharp's own colour parser; throws on an unknown colour. */
export async function backgroundRgb(color: string): Promise<readonly [number, number, number]> {
  let rgb = backgrounds.get(color);
  if (!rgb) {
    const px = await sharp({ create: { width: 1, height: 1, channels: 3, background: color } })
      .raw()
      .toBuffer();
    rgb = [px[0]!, px[1]!, px[2]!] as const;
    if (backgrounds.size > 64) {
      backgrounds.clear();
      for (const [name, known] of KNOWN_BACKGROUNDS) backgrounds.set(name, known);
    }
    backgrounds.set(color, rgb);
  }
  return rgb;
}

/** The PNG as the data: URI a judge model receives. */
export function pngDataUri(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}

/** True when `color` is a colour the renderer understands (CLI flag validation). */
export async function isRenderBackground(color: string): Promise<boolean> {
  try {
    await backgroundRgb(color);
    return true;
  } catch {
    return false;
  }
}

export async function rasterize(
  svg: string,
  background: readonly [number, number, number],
  maxPixels: number,
): Promise<Raster> {
  const encoder = pngEncoder(); // loads zlib while librsvg draws, on a cold worker
  const { data, info } = await sharp(Buffer.from(svg), {
    density: RENDER_DENSITY, // physical units as CairoSVG; the fitted root yields size×size
    limitInputPixels: maxPixels,
    failOn: 'error',
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const { pixels, runs } = flattenAndMeasure(data, width, height, background);
  const encode = await encoder;
  return { png: encode(runs, width, height), width, height, pixels };
}
