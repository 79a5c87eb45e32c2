// Turns an author's answer into rubric items, or rejects it as malformed with a reason.
// Structure (keys, order, axes, weights, band ranges) always comes from the preset;
// the answer only supplies text, and every piece of text must be there.
import { BAND_RANGES, type PresetSkeleton } from './presets.ts';
import type { AuthorAnswer, RubricItem } from './schema.ts';

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

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function contentTokens(text: string, exclude: Set<string>): Set<string> {
  return new Set(words(text).filter((w) => w.length > 2 && !STOP.has(w) && !exclude.has(w)));
}

/** |A∩B| / |A∪B|; 0 for two empty sets (nothing to compare, nothing duplicated). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

export function validateAuthorAnswer(
  preset: PresetSkeleton,
  prompt: string,
  answer: AuthorAnswer,
): ValidationResult {
  const byKey = new Map<string, AuthorAnswer['items'][number]>();
  for (const it of answer.items) {
    const key = it.key.trim();
    if (byKey.has(key)) return { ok: false, message: `item "${key}" appears twice` };
    byKey.set(key, it);
  }
  const expected = new Set(preset.items.map((s) => s.key));
  for (const key of byKey.keys()) {
    if (!expected.has(key)) return { ok: false, message: `unexpected item "${key}"` };
  }
  const items: RubricItem[] = [];
  for (const s of preset.items) {
    const it = byKey.get(s.key);
    if (!it) return { ok: false, message: `missing item "${s.key}"` };
    const title = it.title.trim();
    const description = it.description.trim();
    if (!title) return { ok: false, message: `item "${s.key}" has an empty title` };
    if (!description) return { ok: false, message: `item "${s.key}" has an empty description` };
    if (it.bands.length !== BAND_RANGES.length) {
      return {
        ok: false,
        message: `item "${s.key}" has ${it.bands.length} band guides, needs ${BAND_RANGES.length}`,
      };
    }
    const bands = it.bands.map((g, i) => ({ range: BAND_RANGES[i]!, guide: g.trim() }));
    const empty = bands.find((b) => !b.guide);
    if (empty) return { ok: false, message: `item "${s.key}" band ${empty.range} is empty` };
    items.push({ key: s.key, axis: s.axis, title, description, weight: s.weight, bands });
  }
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
