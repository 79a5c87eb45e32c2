// Checks on the rendered picture: did it render (Reason-SVG's R_render), is it blank, how
// much of the canvas is inked, is the drawing cut by the canvas edge. They read the
// PixelStats the render worker measured; nothing here touches pixels again.
import type { Check } from './types.ts';

/** 1 when the SVG rendered, else 0 (and flagged, with the render's error code). */
export const renders: Check = ({ artifact, render }) => {
  if (render?.ok) return { name: 'renders', value: 1, flag: false, unit: 'score' };
  const code = render ? render.error.code : (artifact.error?.code ?? 'no_svg');
  return { name: 'renders', value: 0, flag: true, unit: 'score', detail: { error: code } };
};

/** MSE against the background; flagged below `blankMse` (an (almost) uniform picture). */
export const blank: Check = ({ render, options }) => {
  if (!render?.ok) return { name: 'blank', value: 0, unit: 'mse', detail: { rendered: false } };
  const mse = render.pixels.mseVsBackground;
  return {
    name: 'blank',
    value: mse,
    flag: mse < options.blankMse,
    unit: 'mse',
    detail: { threshold: options.blankMse },
  };
};

/** Share of pixels visibly different from the background. A number, no flag. */
export const inkCoverage: Check = ({ render }) => {
  if (!render?.ok)
    return { name: 'ink_coverage', value: 0, unit: 'ratio', detail: { rendered: false } };
  return { name: 'ink_coverage', value: render.pixels.inkCoverage, unit: 'ratio' };
};

/**
 * Share of the 1-px border ring that is ink. Some ink on the ring means a shape runs off the
 * canvas; a ring (nearly) all ink is a full-bleed background, which is not a cut drawing.
 */
export const clipped: Check = ({ render, options }) => {
  if (!render?.ok) return { name: 'clipped', value: 0, unit: 'ratio', detail: { rendered: false } };
  const ring = render.pixels.borderInk;
  return {
    name: 'clipped',
    value: ring,
    flag: ring >= options.clippedMinBorderInk && ring < options.clippedMaxBorderInk,
    unit: 'ratio',
    detail: { min: options.clippedMinBorderInk, fullBleedAt: options.clippedMaxBorderInk },
  };
};
