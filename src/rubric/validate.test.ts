// Rubric validation: structure comes from the preset; every malformed shape is dropped
// with a reason a human can act on.
import { describe, expect, it } from 'vitest';
import type { AuthorAnswer } from './answer-schema.ts';
import { getPreset } from './presets.ts';
import { jaccard, validateAuthorAnswer } from './validate.ts';

const PROMPT = 'a pelican riding a bicycle';
const TEXT: Record<string, [string, string]> = {
  concept_recognisability: [
    'Instantly readable scene',
    'A viewer names the whole scene at a glance.',
  ],
  key_parts: [
    'Beak pouch and wheels',
    'The long beak with throat pouch, two wheels and pedals are present.',
  ],
  silhouette_refinement: [
    'Refined outlines',
    'Curves of the body and frame are smooth and well proportioned.',
  ],
  composition: [
    'Balanced layout',
    'Rider and machine are centred, fully inside the canvas with breathing room.',
  ],
  finish_craftsmanship: [
    'Clean finish',
    'Joins are tidy with no stray strokes, gaps or overlapping debris.',
  ],
  stylistic_coherence: [
    'Coherent style',
    'One palette and line treatment throughout with purposeful detail.',
  ],
};

function answer(): AuthorAnswer {
  return Object.fromEntries(
    getPreset('ruler').items.map((s) => [
      s.key,
      {
        title: TEXT[s.key]![0],
        description: TEXT[s.key]![1],
        bands: ['excellent …', 'strong …', 'partial …', 'weak …', 'absent …'],
      },
    ]),
  );
}

describe('validateAuthorAnswer', () => {
  it('accepts a good answer and takes structure from the preset', () => {
    // Order in the answer does not matter (an unguided model may shuffle); the preset's does.
    const a = Object.fromEntries(Object.entries(answer()).reverse());
    const r = validateAuthorAnswer(getPreset('ruler'), PROMPT, a);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.items.map((i) => i.weight)).toEqual([5, 5, 5, 4, 5, 5]);
    expect(r.items.map((i) => i.axis)).toEqual([
      'semantic',
      'semantic',
      'visual',
      'visual',
      'style',
      'style',
    ]);
    expect(r.items[0]!.bands.map((b) => b.range)).toEqual([
      '0.9-1.0',
      '0.7-0.8',
      '0.4-0.6',
      '0.1-0.3',
      '0',
    ]);
  });

  const cases: [string, (a: AuthorAnswer) => void, RegExp][] = [
    ['missing item', (a) => delete a.composition, /missing item "composition"/],
    [
      'extra item',
      (a) => (a.overall_beauty = { ...a.concept_recognisability! }),
      /unexpected item "overall_beauty"/,
    ],
    ['empty title', (a) => (a.key_parts!.title = ''), /"key_parts" has an empty title/],
    ['empty description', (a) => (a.silhouette_refinement!.description = ''), /empty description/],
    ['four bands', (a) => a.finish_craftsmanship!.bands.pop(), /has 4 band guides, needs 5/],
    ['six bands', (a) => a.composition!.bands.push('extra'), /has 6 band guides, needs 5/],
    ['empty band', (a) => (a.stylistic_coherence!.bands[2] = ''), /band 0.4-0.6 is empty/],
    [
      'a title that is not text',
      (a) => ((a.key_parts as unknown as { title: number }).title = 3),
      /item "key_parts": title: /,
    ],
    [
      'two items saying the same thing',
      (a) => {
        a.stylistic_coherence!.title = a.finish_craftsmanship!.title;
        a.stylistic_coherence!.description = a.finish_craftsmanship!.description;
      },
      /"finish_craftsmanship" and "stylistic_coherence" say the same thing/,
    ],
  ];
  for (const [name, mutate, message] of cases) {
    it(`drops: ${name}`, () => {
      const a = answer();
      mutate(a);
      const r = validateAuthorAnswer(getPreset('ruler'), PROMPT, a);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    });
  }

  it('does not count the prompt words every item repeats as overlap', () => {
    const a = answer();
    for (const it of Object.values(a))
      it.description = `The pelican riding the bicycle: ${it.description}`;
    expect(validateAuthorAnswer(getPreset('ruler'), PROMPT, a).ok).toBe(true);
  });

  it('rejects an answer that is not an object of items', () => {
    for (const bad of [null, [], 'rubric', { items: Object.values(answer()) }]) {
      const r = validateAuthorAnswer(getPreset('ruler'), PROMPT, bad);
      expect(r.ok).toBe(false);
    }
  });

  it('accepts whitespace-only text: the schema (minLength 1) allows it, so must the validator', () => {
    const a = answer();
    a.key_parts!.title = '  ';
    a.composition!.bands[1] = '\n';
    const r = validateAuthorAnswer(getPreset('ruler'), PROMPT, a);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.items[1]!.title).toBe('');
  });

  it('jaccard is |A∩B|/|A∪B|', () => {
    expect(jaccard(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd']))).toBeCloseTo(0.5, 12);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });
});
