// `renderer: 'auto'` (the default): librsvg (fast, in the worker) for what it draws as a
// browser does, Chromium only for the features where it was measured not to
// (test/fidelity/corpus against Chromium, docs/rendering.md):
//  - <textPath>: librsvg draws no text on paths at all;
//  - feTurbulence, the lighting filters, feTile and feDisplacementMap: 1.4–36/255 off;
//  - CSS filter functions that change colour (grayscale(), sepia(), saturate(),
//    hue-rotate(), brightness(), contrast(), invert(): librsvg works in linearRGB, Chromium
//    in sRGB, 1.6–21/255) or chain several functions (1.3/255); a single blur(),
//    drop-shadow() or opacity() stays on librsvg (≤ 0.5/255);
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
  /<(?:[\w-]+:)?(?:textPath|feTurbulence|feDiffuseLighting|feSpecularLighting|feTile|feDisplacementMap)\b/i;
// A `filter` declaration or attribute value, up to its end.
const FILTER_VALUE = /filter\s*(?::|=\s*["'])\s*([^;"'}<>]*)/gi;
const COLOUR_FUNCTION = /\b(?:grayscale|sepia|saturate|hue-rotate|brightness|contrast|invert)\(/i;
const FILTER_FUNCTION = /\b(?:blur|drop-shadow|opacity)\(|(?<![\w-])url\(/gi;
const LETTER_SPACING = /letter-spacing/i;
// Never two \s* side by side (as `=\s*["']?\s*` was without a quote): a long run of spaces
// after "text-anchor=" would then be split between them every way, quadratic, and this runs
// in the parent on the raw answer.
const ANCHORED = /text-anchor\s*(?::\s*|=\s*(?:["']\s*)?)(?:middle|end)/i;

/** CSS filter functions librsvg draws differently: colour functions, or a chain of them. */
function hasBrowserFilterFunction(text: string): boolean {
  if (!/filter/i.test(text)) return false;
  for (const m of text.matchAll(FILTER_VALUE)) {
    const value = m[1]!;
    if (COLOUR_FUNCTION.test(value)) return true;
    if ((value.match(FILTER_FUNCTION) ?? []).length > 1) return true;
  }
  return false;
}

/**
 * The renderer `auto` picks for an SVG: Chromium when it uses a feature librsvg draws
 * differently (docs/rendering.md), librsvg otherwise. A text scan, no parse.
 */
export function chooseRenderer(svg: string | Uint8Array): Exclude<RendererName, 'auto'> {
  const text = typeof svg === 'string' ? svg : Buffer.from(svg).toString('latin1');
  if (BROWSER_FEATURES.test(text) || hasBrowserFilterFunction(text)) return 'chromium';
  if (LETTER_SPACING.test(text) && ANCHORED.test(text)) return 'chromium';
  return hasScopedVar(text) ? 'chromium' : 'librsvg';
}
