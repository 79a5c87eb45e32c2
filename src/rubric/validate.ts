// Turns an author's answer into rubric items, or rejects it as malformed with a reason.
// Structure (keys, order, axes, weights, band ranges) always comes from the preset;
// the answer only supplies text, and every piece of text must be non-empty.
import type { z } from 'zod';
import { authorAnswerSchema } from './answer-schema.ts';
import { BAND_RANGES, type PresetSkeleton } from './presets.ts';
import type { RubricItem } from './schema.ts';

/**
 * Two items whose title+description share more than this share of content words
 * (token Jaccard, after removing stop words and the prompt's own words, which every item
 * naturally repeats) are taken to say the same thing.
 */
export const OVERLAP_THRESHOLD = 0.6;

const STOP = new Set(
  'the a an and or of to in on for with by at from as is are be its it this that these those their there which who whom whose into onto than then so such not no nor but if all any each every both either neither own same other more most less least very can could should would will may might must has have had does did do been being was were how what when where why picture image drawing svg clear clearly'.split(
    ' ',
  ),
);

export type ValidationResult = { ok: true; items: RubricItem[] } | { ok: false; message: string };

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function contentTokens(text: string, exclude: Set<string>): Set<string> {
  return new Set(words(text).filter((w) => w.length > 2 && !STOP.has(w) && !exclude.has(w)));
}

/** |A∩B| / |A∪B|; 0 for two empty sets (nothing to compare, nothing duplicated). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** One line a human can act on, for the first thing the answer's structure gets wrong. */
function describeIssue(preset: PresetSkeleton, answer: unknown, issue: z.core.$ZodIssue): string {
  const [key, field, band] = issue.path.map(String);
  const at = (k: string) => (answer as Record<string, Record<string, unknown>>)[key!]?.[k];
  if (issue.code === 'unrecognized_keys') return `unexpected item "${issue.keys[0]}"`;
  if (key === undefined) return `the answer is not an object of items: ${issue.message}`;
  const known = preset.items.some((s) => s.key === key);
  if (known && field === undefined) {
    return issue.code === 'invalid_type' && (answer as Record<string, unknown>)[key] === undefined
      ? `missing item "${key}"`
      : `item "${key}" is not an object`;
  }
  if ((field === 'title' || field === 'description') && issue.code === 'too_small') {
    return `item "${key}" has an empty ${field}`;
  }
  const bands = at('bands');
  if (field === 'bands' && band === undefined && Array.isArray(bands)) {
    return `item "${key}" has ${bands.length} band guides, needs ${BAND_RANGES.length}`;
  }
  if (field === 'bands' && band !== undefined && issue.code === 'too_small') {
    return `item "${key}" band ${BAND_RANGES[Number(band)]} is empty`;
  }
  return `item "${key}": ${issue.path.slice(1).map(String).join('.')}: ${issue.message}`;
}

/**
 * The author's answer → rubric items. Structure is exactly authorAnswerSchema(preset), the
 * schema the request carried, so every answer a guided decoder can produce passes it; the
 * one check beyond it is semantic (two items saying the same thing), which no JSON Schema
 * can express.
 */
export function validateAuthorAnswer(
  preset: PresetSkeleton,
  prompt: string,
  answer: unknown,
): ValidationResult {
  const parsed = authorAnswerSchema(preset).safeParse(answer);
  if (!parsed.success) {
    // Missing items before anything else: the most useful thing to hear first.
    const issues = parsed.error.issues;
    const first =
      issues.find((i) => i.path.length === 1 && i.code === 'invalid_type') ??
      issues.find((i) => i.code === 'unrecognized_keys') ??
      issues[0]!;
    return { ok: false, message: describeIssue(preset, answer, first) };
  }
  const items: RubricItem[] = preset.items.map((s) => {
    const it = parsed.data[s.key]!;
    return {
      key: s.key,
      axis: s.axis,
      // Surrounding whitespace is layout, not content; the schema's minLength cannot tell
      // whitespace from text, so whitespace-only text stays valid (and stored empty).
      title: it.title.trim(),
      description: it.description.trim(),
      weight: s.weight,
      bands: it.bands.map((g, i) => ({ range: BAND_RANGES[i]!, guide: g.trim() })),
    };
  });
  const promptWords = new Set(words(prompt));
  const tokens = items.map((it) => contentTokens(`${it.title} ${it.description}`, promptWords));
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const sim = jaccard(tokens[i]!, tokens[j]!);
      if (sim > OVERLAP_THRESHOLD) {
        return {
          ok: false,
          message: `items "${items[i]!.key}" and "${items[j]!.key}" say the same thing (overlap ${sim.toFixed(2)})`,
        };
      }
    }
  }
  return { ok: true, items };
}
