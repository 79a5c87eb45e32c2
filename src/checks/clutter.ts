// The CLIP/aesthetic reward hack (RULER's paper): outputs grow from 0.3k to 6.3k tokens of
// overlapping decorative strokes. Judged on the code and on what it paints together; the
// value is the largest of four ratios to their allowances, 1 or more is flagged:
//   decorative strokes (stroked, unfilled shapes and lines) written in the code,
//   elements written in the code (copies made by <use> are not bloat: reusing a symbol is
//     how a drawing asks for 240 identical stars),
//   path segments,
//   overdraw: painted area / canvas area from the geometry (measured by the render worker,
//     read through overdraw.ts), i.e. how many layers are piled on an average pixel.
// Repetition the prompt asks for (a count such as "240 stars", or a pattern, grid, crowd …:
// prompt-intent.ts) raises the stroke and element allowances to what was asked; overdraw
// and segments keep theirs, so a pile on top of the requested pattern still flags.
// Light the prompt asks for (lighting, glow, rays, bokeh, haze, translucency, gradients:
// prompt-intent.ts) is drawn as layers laid over the scene: the overdraw allowance is
// multiplied by `clutterLightFactor` (4 → 8 layers per pixel). The stroke, element and
// segment allowances keep theirs, so junk piled on a lit scene still flags.
// Measured on 3,174 Fluent Emoji icons the largest are 8 stroked shapes, 47 elements and
// 846 segments, so the defaults leave wide room for real illustrations.
import { overdrawFor } from './overdraw.ts';
import { promptIntent } from './prompt-intent.ts';
import type { Check } from './types.ts';

export const clutter: Check = ({ artifact, render, prompt, options }) => {
  const code = render?.code;
  if (!code)
    return { name: 'clutter', value: 0, unit: 'ratio', detail: { reason: 'no code stats' } };
  const intent = prompt ? promptIntent(prompt) : null;
  const rep = intent?.repetition ?? { count: null, pattern: false };
  const light = intent?.light ?? { asked: false, cues: [] };
  const factor = rep.pattern ? options.clutterRepeatFactor : 1;
  const asked = rep.count ?? 0;
  const allow = {
    strokedShapes: Math.max(options.clutterStrokedShapes * factor, 1.5 * asked),
    elements: Math.max(options.clutterElements * factor, 3 * asked),
    overdraw: options.clutterOverdraw * (light.asked ? options.clutterLightFactor : 1),
  };
  const od = overdrawFor(artifact, code);
  const overdraw = od?.layers ?? 0;
  const ratios = {
    strokedShapes: code.strokedShapes / allow.strokedShapes,
    elements: code.elements / allow.elements,
    pathSegments: code.pathSegments / options.clutterPathSegments,
    overdraw: overdraw / allow.overdraw,
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
      overdrawMeasured: od !== null,
      repetitionAsked: rep,
      lightAsked: { asked: light.asked, cues: light.cues.slice(0, 10) },
      allowances: allow,
      ratios,
    },
  };
};
