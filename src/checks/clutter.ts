// The CLIP/aesthetic reward hack (RULER's paper): outputs grow from 0.3k to 6.3k tokens of
// overlapping decorative strokes. The value is the largest of four ratios to their
// thresholds (stroked unfilled shapes, elements, path segments, overdraw when measured);
// 1 or more is flagged. Measured on 3,174 Fluent Emoji icons the largest are 8 stroked
// shapes, 47 elements and 846 segments, so the defaults leave wide room for real
// illustrations while a few hundred scribbles still trip them.
import type { Check } from './types.ts';

export const clutter: Check = ({ render, options }) => {
  const code = render?.code;
  if (!code)
    return { name: 'clutter', value: 0, unit: 'ratio', detail: { reason: 'no code stats' } };
  const overdraw = render.ok ? render.pixels.overdraw : 0;
  const ratios = {
    strokedShapes: code.strokedShapes / options.clutterStrokedShapes,
    elements: code.expandedElements / options.clutterElements,
    pathSegments: code.pathSegments / options.clutterPathSegments,
    overdraw: overdraw > 0 ? overdraw / options.clutterOverdraw : 0,
  };
  const value = Math.max(
    ratios.strokedShapes,
    ratios.elements,
    ratios.pathSegments,
    ratios.overdraw,
  );
  return {
    name: 'clutter',
    value,
    flag: value >= 1,
    unit: 'ratio',
    detail: {
      strokedShapes: code.strokedShapes,
      elements: code.elements,
      expandedElements: code.expandedElements,
      pathSegments: code.pathSegments,
      overdraw,
      ratios,
    },
  };
};
