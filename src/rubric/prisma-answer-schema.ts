// What the PrismaForge author returns, as zod schemas that are both the JSON Schema sent with
// the call and the structural half of the validator (validate.ts): every answer a guided
// decoder can produce under the schema is accepted, and the schema forbids what the parse
// rejects. Numbers a decoder must choose from a set (difficulty, weight, count) are `enum`s,
// since llama.cpp's grammar converter and outlines ignore `minimum`/`maximum`; item counts
// are exact (`minItems = maxItems`), set by the difficulty's budget (budget.ts).
import { z } from 'zod';
import { DIFFICULTIES, ITEM_WEIGHTS, type ItemBudget, MAX_COUNT } from './prisma-budget.ts';

/** Step 1: the instruction's difficulty, reasoning first so it is written before the number. */
export const DifficultyAnswerSchema = z.strictObject({
  reasoning: z.string(),
  difficulty: z.literal(DIFFICULTIES),
});
export type DifficultyAnswer = z.infer<typeof DifficultyAnswerSchema>;

const COUNTS = Array.from({ length: MAX_COUNT }, (_, i) => i + 1) as [number, ...number[]];

export const AuthorCriterionSchema = z.strictObject({
  /** One checkable statement, specific to this instruction. */
  criterion: z.string().min(1),
  /** Importance: 1 minor, 2 important, 3 essential. */
  weight: z.literal(ITEM_WEIGHTS),
  /** 1 for a yes/no check; n when the criterion counts n things (each checked on its own). */
  count: z.literal(COUNTS),
});

export interface ItemsAnswer {
  code_items: z.infer<typeof AuthorCriterionSchema>[];
  vision_items: z.infer<typeof AuthorCriterionSchema>[];
}

const byBudget = new Map<string, z.ZodType<ItemsAnswer>>();

/** Step 2's schema for one budget: exactly `code` code items and `vision` vision items. */
export function itemsAnswerSchema(budget: ItemBudget): z.ZodType<ItemsAnswer> {
  const id = `${budget.code}:${budget.vision}`;
  let s = byBudget.get(id);
  if (!s) {
    s = z.strictObject({
      code_items: z.array(AuthorCriterionSchema).length(budget.code),
      vision_items: z.array(AuthorCriterionSchema).length(budget.vision),
    });
    byBudget.set(id, s);
  }
  return s;
}

/** What step 2 is parsed with: any object, so validate.ts can say what is wrong. */
export const AnyItemsAnswerSchema = z.record(z.string(), z.unknown());
