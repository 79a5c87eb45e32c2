// The `universal` preset: one rubric for every prompt, written here once (the paper's
// evaluation judge uses a single universal rubric). No author call, no ideal SVG.
import { BAND_RANGES, getPreset } from './presets.ts';
import type { RubricItem } from './schema.ts';

const GUIDES: Record<string, [string, string, string, string, string]> = {
  prompt_fit: [
    'Shows exactly what the prompt asks for, every named subject and attribute clearly present.',
    'Clearly the requested subject; a minor attribute is missing or off.',
    'The subject is guessable but important parts or attributes are missing or wrong.',
    'Only a vague or generic resemblance to the prompt.',
    'Unrelated to the prompt, or nothing meaningful drawn.',
  ],
  visual_quality: [
    'Shapes are refined, well proportioned and confidently drawn.',
    'Competent shapes with small awkward spots.',
    'Recognisable but crude: lumpy outlines, primitive placeholder shapes, odd proportions.',
    'Mostly malformed or broken shapes.',
    'No coherent shapes.',
  ],
  composition: [
    'Balanced, well scaled, clear focal point, good use of the canvas.',
    'Sound layout with a minor imbalance or spacing issue.',
    'Noticeably off-centre, too small/large, crowded or partly cropped.',
    'Disorganised: elements overlap badly, fall off the canvas or float randomly.',
    'No discernible layout.',
  ],
  rendering_cleanliness: [
    'Clean edges and fills; no stray, broken or glitchy elements.',
    'Clean overall with one or two small artefacts.',
    'Several artefacts: stray strokes, gaps, overlapping debris.',
    'Dominated by artefacts or visibly broken rendering.',
    'Rendering is broken throughout.',
  ],
  style: [
    'A coherent, intentional style with pleasing palette and purposeful detail.',
    'Consistent style with little that stands out.',
    'Mixed or plain style; palette or line treatment inconsistent.',
    'Clashing styles or colours; looks accidental.',
    'No stylistic intent at all.',
  ],
};

/** The universal rubric's items (same for every prompt). */
export function universalItems(): RubricItem[] {
  return getPreset('universal').items.map((s) => {
    const guides = GUIDES[s.key]!;
    return {
      key: s.key,
      axis: s.axis,
      title: s.title,
      description: s.focus,
      weight: s.weight,
      bands: BAND_RANGES.map((range, i) => ({ range, guide: guides[i]! })),
    };
  });
}
