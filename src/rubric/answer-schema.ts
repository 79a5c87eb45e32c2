// What the author returns in step 2, per preset, as one zod schema that is both the JSON
// Schema sent with the call and the structural half of the validator (src/rubric/validate.ts).
//
// Shape: one object with a property per item key, in the preset's order, each
// {title, description, bands: [five guides, best band first]}:
//   {"concept_recognisability": {"title": "…", "description": "…", "bands": ["…", ×5]}, …}
// Keys as properties (not an array of {key, …}) because every guided decoder enforces
// `properties` + `required` + `additionalProperties: false` and writes properties in schema
// order, while a fixed-order array needs `prefixItems`, which llama.cpp (Ollama) only takes
// when no `items` keyword closes the tuple and other decoders treat unevenly. Exact band
// counts are `minItems = maxItems = 5`; non-empty texts are `minLength: 1`. See
// docs/rubrics-and-judging.md, "The schema is the contract".
import { z } from 'zod';
import { BAND_RANGES, type PresetSkeleton } from './presets.ts';

const Text = z.string().min(1);

export const AuthorItemSchema = z.object({
  title: Text,
  /** One sentence: the high standard for this prompt. */
  description: Text,
  /** Five guides, best band first: 0.9-1.0, 0.7-0.8, 0.4-0.6, 0.1-0.3, 0. */
  bands: z.array(Text).length(BAND_RANGES.length),
});
export type AuthorItem = z.infer<typeof AuthorItemSchema>;

/** The author's answer: item key → its text. */
export type AuthorAnswer = Record<string, AuthorItem>;

const byPreset = new WeakMap<PresetSkeleton, z.ZodType<AuthorAnswer>>();

/**
 * The answer schema of one preset. The top level is strict (an item the preset does not have
 * is an error); inside an item, extra fields an unguided model may add (an echoed "key") are
 * dropped, since the schema sent forbids them anyway.
 */
export function authorAnswerSchema(preset: PresetSkeleton): z.ZodType<AuthorAnswer> {
  let schema = byPreset.get(preset);
  if (!schema) {
    const shape: Record<string, typeof AuthorItemSchema> = {};
    for (const s of preset.items) shape[s.key] = AuthorItemSchema;
    schema = z.strictObject(shape) as unknown as z.ZodType<AuthorAnswer>;
    byPreset.set(preset, schema);
  }
  return schema;
}

/**
 * What the client parses step 2 with: any JSON object. Structure is checked by
 * validateAuthorAnswer against authorAnswerSchema, so a structurally wrong answer from an
 * unguided model is dropped as `malformed` with a reason rather than retried.
 */
export const AnyAuthorAnswerSchema = z.record(z.string(), z.unknown());
