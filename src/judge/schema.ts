// The judge's answer shapes. Joint mode: one object with a property per item key, in
// rubric order, each {reasoning, score} — reasoning first so a constrained decoder
// writes it before the number. Every key is required and every score must be a number
// in [0,1]: a missing item, a string or 1.7 is an invalid answer (retried, then a
// judge_error), never clamped.
import { z } from 'zod';
import type { RubricItem } from '../rubric/schema.ts';

export const ItemVerdictSchema = z.object({
  reasoning: z.string(),
  score: z.number().min(0).max(1),
});
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;

export function jointAnswerSchema(items: readonly RubricItem[]) {
  const shape: Record<string, typeof ItemVerdictSchema> = {};
  for (const it of items) shape[it.key] = ItemVerdictSchema;
  return z.object(shape);
}
