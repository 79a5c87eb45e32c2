// `renderer: 'auto'`: librsvg (fast, in the worker) for what it draws as a browser does,
// Chromium for the features where it was measured not to (test/fidelity/corpus against
// Chromium, docs/rendering.md): <textPath> (librsvg draws nothing), CSS var() (left
// unresolved: black), text (glyph edges 1.7–6/255 off), feTurbulence, the lighting
// filters, feTile, feDisplacementMap and CSS filter functions (1.4–36/255). The test runs on
// the raw code: a false positive only costs speed, never fidelity.
import type { RendererName } from './types.ts';

const BROWSER_FEATURES =
  /<(?:[\w-]+:)?(?:text|textPath|feTurbulence|feDiffuseLighting|feSpecularLighting|feTile|feDisplacementMap)\b|var\(|filter\s*:\s*(?!url\()[a-z-]+\(/i;

export function chooseRenderer(svg: string | Uint8Array): Exclude<RendererName, 'auto'> {
  const text = typeof svg === 'string' ? svg : Buffer.from(svg).toString('latin1');
  return BROWSER_FEATURES.test(text) ? 'chromium' : 'librsvg';
}
