// The judge's answer shapes, and the contract a guided decoder is held to. Joint mode: one
// object with a property per item key, in rubric order, each {reasoning, score} — reasoning
// first so a constrained decoder writes it before the number. Per-item mode: one
// {reasoning, score}. Every key is required and every score must be a number in [0,1]: a
// missing item, a string or 1.7 is an invalid answer (retried, then a judge_error), never
// clamped.
//
// The JSON Schema sent with the call is derived from these zod schemas (see
// src/models/answer-schema.ts), so it carries every constraint the parse enforces. A score's
// `minimum`/`maximum` alone is not enough: llama.cpp's grammar converter (Ollama's `format`)
// and outlines ignore bounds on `number`, so the schema also lists the allowed scores as an
// `enum` on a 0.01 grid — the one numeric constraint every guided decoder enforces. The parse
// still accepts any number in [0,1] (what an unguided model may write), so every answer the
// schema allows is accepted and everything the parse rejects the schema rejects too.
import { z } from 'zod';
import type { RubricItem } from '../rubric/schema.ts';

/** Resolution of the score grid a guided decoder may choose from. */
export const SCORE_STEP = 0.01;

/** 0, 0.01, …, 1 (each the double nearest to i/100, written with at most two decimals). */
export const SCORE_GRID: readonly number[] = Array.from(
  { length: Math.round(1 / SCORE_STEP) + 1 },
  (_, i) => i / Math.round(1 / SCORE_STEP),
);

/** A criterion score: any number in [0,1] parses; the request schema offers the 0.01 grid. */
export const ScoreSchema = z
  .number()
  .min(0)
  .max(1)
  .meta({ enum: [...SCORE_GRID] });

export const ItemVerdictSchema = z.object({
  reasoning: z.string(),
  score: ScoreSchema,
});
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;

/** The one-digit scale (expected scoring): answers "0"…"9", each the score digit ÷ 9. */
export const DIGIT_SCORES: ReadonlyMap<string, number> = new Map(
  Array.from({ length: 10 }, (_, d) => [String(d), d / 9] as const),
);

/** A one-digit score: an integer 0–9, offered to a guided decoder as an enum. */
export const DigitScoreSchema = z
  .number()
  .int()
  .min(0)
  .max(9)
  .meta({ enum: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });

export const DigitVerdictSchema = z.object({
  reasoning: z.string(),
  score: DigitScoreSchema,
});

/** Built once per list of item keys: the client caches JSON Schemas by schema object. */
const jointByKeys = new Map<string, z.ZodObject<Record<string, typeof ItemVerdictSchema>>>();
const JOINT_CACHE_MAX = 1024;

export function jointAnswerSchema(
  items: readonly Pick<RubricItem, 'key'>[],
  scale: 'grid' | 'digit' = 'grid',
) {
  const keys = items.map((it) => it.key);
  const id = JSON.stringify([scale, keys]);
  let schema = jointByKeys.get(id);
  if (!schema) {
    const shape: Record<string, typeof ItemVerdictSchema> = {};
    // Both verdicts parse to {reasoning, score: number}: one object type serves both scales.
    const item = (
      scale === 'digit' ? DigitVerdictSchema : ItemVerdictSchema
    ) as typeof ItemVerdictSchema;
    for (const k of keys) shape[k] = item;
    schema = z.object(shape);
    if (jointByKeys.size >= JOINT_CACHE_MAX) jointByKeys.clear();
    jointByKeys.set(id, schema);
  }
  return schema;
}
