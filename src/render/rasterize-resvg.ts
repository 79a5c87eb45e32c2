// resvg (through @resvg/resvg-js) turns a sanitised, fitted SVG into pixels inside a render
// worker — the same contract as rasterize.ts (librsvg): opaque size×size on the background,
// pixel statistics, PNG for the judge. resvg can abort the whole process on some files (a
// Rust panic): the worker process contains that and the pool reports render_crash. Fonts
// are the pinned DejaVu set (fonts.ts), loaded only when the drawing has text (loading
// fonts costs more than drawing a typical icon), then the files of the pinned fallback chain
// (font-chain.ts) that cover the text's characters, in chain order: resvg's fallback takes
// the first loaded face that has a character, the order fontconfig gives librsvg and
// Chromium, and a file left out covers none of the text so it changes nothing.
import { Resvg } from '@resvg/resvg-js';
import { fontFilesFor } from '../core/font-glyphs.ts';
import { FONT_FAMILIES } from '../core/fonts.ts';
import { flattenAndMeasure } from './pixel-stats.ts';
import { pngEncoder } from './png-encode.ts';
import type { Raster } from './rasterize.ts';

const FONT = {
  loadSystemFonts: false,
  defaultFontFamily: FONT_FAMILIES.sansSerif,
  sansSerifFamily: FONT_FAMILIES.sansSerif,
  serifFamily: FONT_FAMILIES.serif,
  monospaceFamily: FONT_FAMILIES.monospace,
  cursiveFamily: FONT_FAMILIES.sansSerif,
  fantasyFamily: FONT_FAMILIES.sansSerif,
  defaultFontSize: 16, // CairoSVG's and browsers' 12pt
};

export async function rasterizeResvg(
  svg: string,
  size: number,
  background: readonly [number, number, number],
): Promise<Raster> {
  const hasText = /<(text|tspan|textPath)\b/.test(svg);
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: size }, // the fitted root is square
    dpi: 96,
    background: `rgb(${background.join(',')})`, // opaque: no premultiplied edges to undo
    font: hasText ? { ...FONT, fontFiles: fontFilesFor(svg) } : { loadSystemFonts: false },
    logLevel: 'off',
  });
  const img = resvg.render();
  const { width, height } = img;
  const px = img.pixels;
  const encode = await pngEncoder();
  const { pixels, runs } = flattenAndMeasure(px, width, height, background);
  return { png: encode(runs, width, height), width, height, pixels };
}
