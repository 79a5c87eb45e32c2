// `renderer: 'auto'` (the default): librsvg (fast, in the worker) for what it draws as a
// browser does, Chromium only for the features where it was measured not to
// (test/fidelity/corpus against Chromium, docs/rendering.md):
//  - <textPath>: librsvg draws no text on paths at all;
//  - feTurbulence, the lighting filters, feTile, feDisplacementMap and CSS filter functions
//    (`filter: blur(…)`): 1.4–36/255 off;
//  - letter-spacing on middle/end-anchored text: Chromium counts the last letter's spacing
//    into the anchored width, librsvg does not (2.1–2.7/255 on a line of text);
//  - var() of a custom property defined in a narrower scope than the document (the
//    sanitiser substitutes document-wide ones, src/render/sanitize-vars.ts).
// Plain text no longer goes: with the pinned unhinted fonts (fonts.ts) librsvg's text is
// within 0.6/255 of Chromium's. The test runs on the raw code: a false positive only costs
// speed, never fidelity.
import { hasScopedVar } from './sanitize-vars.ts';
import type { RendererName } from './types.ts';

const BROWSER_FEATURES =
  /<(?:[\w-]+:)?(?:textPath|feTurbulence|feDiffuseLighting|feSpecularLighting|feTile|feDisplacementMap)\b|filter\s*:\s*(?!url\()[a-z-]+\(/i;
const LETTER_SPACING = /letter-spacing/i;
const ANCHORED = /text-anchor\s*(?::|=\s*["']?)\s*(?:middle|end)/i;

export function chooseRenderer(svg: string | Uint8Array): Exclude<RendererName, 'auto'> {
  const text = typeof svg === 'string' ? svg : Buffer.from(svg).toString('latin1');
  if (BROWSER_FEATURES.test(text)) return 'chromium';
  if (LETTER_SPACING.test(text) && ANCHORED.test(text)) return 'chromium';
  return hasScopedVar(text) ? 'chromium' : 'librsvg';
}
