// Pixel statistics for a picture another process drew (Chromium's screenshot): decode the
// PNG, measure it exactly as the in-worker renderers do, keep the PNG as it is. Loaded
// lazily by the pool so commands that never use Chromium do not load sharp in the parent.

import { flattenInPlace } from './pixel-stats.ts';
import { backgroundRgb } from './rasterize.ts';
import sharp from './sharp.ts';
import type { PixelStats } from './types.ts';

export async function measurePng(
  png: Buffer,
  background: string,
): Promise<{ width: number; height: number; pixels: PixelStats }> {
  const bg = await backgroundRgb(background);
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixels = flattenInPlace(data, info.width, info.height, bg);
  return { width: info.width, height: info.height, pixels };
}
