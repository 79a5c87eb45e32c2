// The fixed skeletons of each rubric preset: which items exist, in which order, on which
// axis and with which weight. The author model only rewrites the text for one prompt;
// structure and weights never come from a model.

import { type Axis, type PresetName, PresetSchema } from './schema.ts';

export type { Axis, PresetName } from './schema.ts';
/** Every rubric preset: `ruler` (instance rubrics), `universal`, `rubric-s`. */
export const PRESETS: readonly PresetName[] = PresetSchema.options;

/** The five scoring bands of every item, best first (RULER: any decimal inside a band). */
export const BAND_RANGES = ['0.9-1.0', '0.7-0.8', '0.4-0.6', '0.1-0.3', '0'] as const;

export interface ItemSkeleton {
  key: string;
  axis: Axis;
  weight: number;
  /** Generic title; the author rewrites it for the prompt. */
  title: string;
  /** What the item looks at, told to the author so items stay orthogonal. */
  focus: string;
}

export interface PresetSkeleton {
  name: PresetName;
  /** False for `universal`: one rubric written here, no author call. */
  authored: boolean;
  items: ItemSkeleton[];
  /** Extra instructions for the author (Rubric-S is stricter). */
  authorNotes: string;
}

const RULER: PresetSkeleton = {
  name: 'ruler',
  authored: true,
  authorNotes: '',
  items: [
    {
      key: 'concept_recognisability',
      axis: 'semantic',
      weight: 5,
      title: 'Concept recognisability and overall readability',
      focus:
        'Can a viewer tell at a glance what the picture shows, as the prompt asks for it, and read the whole scene without effort.',
    },
    {
      key: 'key_parts',
      axis: 'semantic',
      weight: 5,
      title: 'Key parts and distinctive cues',
      focus:
        'Are the parts and cues that make this particular subject (and the attributes the prompt names) present and identifiable.',
    },
    {
      key: 'silhouette_refinement',
      axis: 'visual',
      weight: 5,
      title: 'Silhouette and shape refinement',
      focus:
        'Are outlines and shapes deliberate, well proportioned and cleanly formed rather than lumpy, broken or primitive placeholders.',
    },
    {
      key: 'composition',
      axis: 'visual',
      weight: 4,
      title: 'Composition and layout',
      focus:
        'Placement, scale, balance and use of the canvas: nothing cropped or crammed, clear focal point, sensible spacing.',
    },
    {
      key: 'finish_craftsmanship',
      axis: 'style',
      weight: 5,
      title: 'Finish and craftsmanship',
      focus:
        'Rendering quality of the drawn elements: clean joins, no stray or overlapping artefacts, consistent stroke and fill handling.',
    },
    {
      key: 'stylistic_coherence',
      axis: 'style',
      weight: 5,
      title: 'Stylistic coherence and intentional visual interest',
      focus:
        'One consistent visual language (palette, line, shading) with deliberate detail that adds interest without clutter.',
    },
  ],
};

const RUBRIC_S: PresetSkeleton = {
  name: 'rubric-s',
  authored: true,
  authorNotes:
    'This is the strict variant: write demanding standards that stress structural completeness (every part the prompt implies is present and correctly assembled). There is no style item. The last item is a penalty: its score measures how strongly the picture relies on written words (labels, captions, the prompt words drawn as text) instead of drawing the subject; 0 means no such text.',
  items: [
    {
      key: 'concept_recognisability',
      axis: 'semantic',
      weight: 5,
      title: 'Concept recognisability',
      focus: 'The subject is unmistakable from the picture alone.',
    },
    {
      key: 'key_parts',
      axis: 'semantic',
      weight: 5,
      title: 'Key parts and attributes',
      focus: 'Every part and attribute the prompt names or clearly implies is present.',
    },
    {
      key: 'structural_completeness',
      axis: 'semantic',
      weight: 5,
      title: 'Structural completeness',
      focus:
        'The parts are assembled correctly: attached where they belong, none floating or missing.',
    },
    {
      key: 'silhouette_refinement',
      axis: 'visual',
      weight: 5,
      title: 'Silhouette and shape refinement',
      focus: 'Shapes are deliberate, well proportioned and cleanly formed.',
    },
    {
      key: 'composition',
      axis: 'visual',
      weight: 4,
      title: 'Composition and layout',
      focus: 'Placement, scale and balance on the canvas; nothing cropped or crammed.',
    },
    {
      key: 'text_penalty',
      axis: 'penalty',
      weight: -2,
      title: 'Text used as a shortcut (penalty)',
      focus:
        'How much the picture uses written words (labels, captions, the prompt words) in place of drawing; score 0 when there is no text, 1 when text carries the picture.',
    },
  ],
};

const UNIVERSAL: PresetSkeleton = {
  name: 'universal',
  authored: false,
  authorNotes: '',
  items: [
    {
      key: 'prompt_fit',
      axis: 'semantic',
      weight: 1,
      title: 'Prompt fit',
      focus: 'The picture shows what the prompt asks for, with the attributes it names.',
    },
    {
      key: 'visual_quality',
      axis: 'visual',
      weight: 1,
      title: 'Visual quality',
      focus: 'Shapes are well formed and proportioned; the drawing looks competent.',
    },
    {
      key: 'composition',
      axis: 'visual',
      weight: 1,
      title: 'Composition',
      focus: 'Placement, scale and balance on the canvas; nothing cropped or crammed.',
    },
    {
      key: 'rendering_cleanliness',
      axis: 'style',
      weight: 1,
      title: 'Rendering cleanliness',
      focus: 'No broken, stray, overlapping or glitchy elements; clean edges and fills.',
    },
    {
      key: 'style',
      axis: 'style',
      weight: 1,
      title: 'Style',
      focus: 'A coherent, intentional visual style suited to the subject.',
    },
  ],
};

const BY_NAME: Record<PresetName, PresetSkeleton> = {
  ruler: RULER,
  'rubric-s': RUBRIC_S,
  universal: UNIVERSAL,
};

/** A preset's skeleton: its item slots, whether an author writes it, notes for the author. */
export function getPreset(name: PresetName): PresetSkeleton {
  return BY_NAME[name];
}

/** True when `s` names a rubric preset. */
export function isPresetName(s: string): s is PresetName {
  return (PRESETS as readonly string[]).includes(s);
}
