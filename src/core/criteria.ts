// One idea carries all three papers: a reward is a weighted tree of criteria.
//  - A leaf is one criterion, scored in [0,1] (or null when it could not be scored) by a
//    check (deterministic code), a judge (a VLM reading the picture), a code judge (an LLM
//    reading the code) or a scorer (CLIP, an aesthetic model).
//  - A group is a weighted node over children (RULER's six items; PrismaForge's code and
//    vision rubrics under λc/λv; Reason-SVG's four terms under their λ).
// These zod schemas are the single source of the shapes; the arithmetic lives in
// src/reward/tree.ts, and every reward, record, file and HTTP body uses these.
import { z } from 'zod';
import { ScoreMassSchema } from './provenance.ts';
import { ReasonSchema } from './status.ts';

export const CriterionSourceSchema = z.enum(['judge', 'check', 'scorer', 'code_judge']);
/**
 * What scored a criterion: the VLM judge, a deterministic check, an image scorer, or a code
 * judge.
 */
export type CriterionSource = z.infer<typeof CriterionSourceSchema>;

/** The zod schema of one scored criterion (a leaf of the criterion tree). */
export const CriterionLeafSchema = z.object({
  key: z.string(),
  /** Which axis the criterion measures (semantic, visual, style, penalty, code, …). */
  axis: z.string(),
  /** May be negative: a penalty item (Rubric-S's text penalty, −2). */
  weight: z.number(),
  /** In [0,1]; null when the criterion could not be scored. */
  score: z.number().nullable(),
  rationale: z.string().optional(),
  source: CriterionSourceSchema.optional(),
  /** Why `score` is null: a grader fault (judge_error, scorer_error, …) or a rule reason. */
  reason: ReasonSchema.optional(),
  /**
   * Under a judge panel (issue 37): each judge's own answer for this criterion (score null
   * with the fault when that judge failed); `score` is the panel's combined value.
   */
  panel: z
    .array(
      z.object({ judge: z.string(), score: z.number().nullable(), fault: z.string().optional() }),
    )
    .optional(),
  /**
   * Expected scoring: the judge's distribution over the allowed answers (renormalised), of
   * which `score` is the expected value Σ p·score.
   */
  distribution: z.array(ScoreMassSchema).optional(),
});
/**
 * One scored criterion: key, axis, weight and a score in [0,1] (null with a `reason` when it
 * could not be scored).
 */
export type CriterionScore = z.infer<typeof CriterionLeafSchema>;
/** A leaf of the criterion tree: a scored criterion, optionally tagged `kind: 'leaf'`. */
export type CriterionLeaf = CriterionScore & { kind?: 'leaf' };

/** An inner node of the criterion tree: its value is the weighted mean of its children's. */
export interface CriterionGroup {
  kind: 'group';
  key: string;
  weight: number;
  children: CriterionNode[];
}
/** A node of the criterion tree: a scored leaf or a weighted group. */
export type CriterionNode = CriterionLeaf | CriterionGroup;

/** The zod schema of a criterion group, recursive (a record's `tree`). */
export const CriterionGroupSchema: z.ZodType<CriterionGroup> = z.object({
  kind: z.literal('group'),
  key: z.string(),
  weight: z.number(),
  get children() {
    return z.array(
      z.union([
        CriterionLeafSchema.extend({ kind: z.literal('leaf').optional() }),
        CriterionGroupSchema,
      ]),
    );
  },
});

/** True for a group node, false for a leaf (a leaf may omit `kind`, so test for the group). */
export function isGroup(node: CriterionNode): node is CriterionGroup {
  return (node as CriterionGroup).kind === 'group';
}
