// A PrismaForge rubric as stored (one line of rubrics.jsonl with `preset: "prisma"`): two
// lists of binary criteria, code items (an LLM checks them by reading the code) and vision
// items (a VLM checks them on the rendered picture). Each item is domain-shared (from the
// domain's reusable list) or sample-specific (written by the author for this instruction),
// has a weight, and a `count`: 1 for a yes/no criterion, n > 1 for one that counts n things
// ("the three bar heights are 4, 7, 2"), whose score is the share satisfied (2 of 3 → 2/3).
import { z } from 'zod';
import { UsageSchema } from '../core/usage.ts';

export const ModalitySchema = z.enum(['code', 'vision']);
export type Modality = z.infer<typeof ModalitySchema>;

export const PrismaItemSchema = z.object({
  /** Unique within the rubric: `shared_<key>` (domain-shared) or `specific_<i>`. */
  key: z.string().min(1),
  modality: ModalitySchema,
  origin: z.enum(['shared', 'specific']),
  /** One checkable statement about the code or the picture. */
  criterion: z.string().min(1),
  weight: z.number().positive(),
  /** How many things the criterion counts; 1 = yes/no. */
  count: z.number().int().min(1),
});
/**
 * One PrismaForge rubric item: a yes/no or counting criterion on the code or the picture,
 * with its weight.
 */
export type PrismaItem = z.infer<typeof PrismaItemSchema>;

export const PrismaDropReasonSchema = z.enum(['author_error', 'malformed']);

/**
 * The zod schema of a PrismaForge rubric line: code and vision items for one instruction,
 * its domain, family and difficulty, whether it was kept, and what writing it cost.
 */
export const PrismaRubricSchema = z.object({
  id: z.string(),
  prompt: z.string(),
  preset: z.literal('prisma'),
  /** Artifact domain (svg, vega-lite, html, …); decides the shared criteria and renderer. */
  domain: z.string(),
  /** Task family: picks λc/λv/λh (src/reward/families.ts). */
  family: z.string(),
  /** The author's estimate, 1 (trivial) … 5 (very hard); sets the item budget. */
  difficulty: z.number().int().min(1).max(5).nullable(),
  code_items: z.array(PrismaItemSchema),
  vision_items: z.array(PrismaItemSchema),
  kept: z.boolean(),
  drop_reason: PrismaDropReasonSchema.optional(),
  drop_message: z.string().optional(),
  author: z.string(),
  /** Content hashes of the author prompts and the shared criteria used. */
  versions: z.object({ author: z.string(), shared: z.string() }),
  usage: UsageSchema,
});
/** One PrismaForge rubric (see PrismaRubricSchema). */
export type PrismaRubric = z.infer<typeof PrismaRubricSchema>;
