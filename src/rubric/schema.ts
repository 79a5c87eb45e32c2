// The rubric as stored in rubrics.jsonl (one line per prompt). Zod is the single source of
// truth; types are inferred from it. The author's answer shape is in answer-schema.ts.
import { z } from 'zod';
import { AssetsInputSchema } from '../core/assets.ts';
import { DOMAIN_IDS } from '../core/domain-ids.ts';

/** The axes of rubric items (one definition: presets, validation and --drop-axis use it). */
export const AxisSchema = z.enum(['semantic', 'visual', 'style', 'penalty']);
export type Axis = z.infer<typeof AxisSchema>;
export const PresetSchema = z.enum(['ruler', 'universal', 'rubric-s']);
/** A rubric preset's name: `ruler`, `universal` or `rubric-s`. */
export type PresetName = z.infer<typeof PresetSchema>;

export const BandSchema = z.object({
  /** "0.9-1.0", "0.7-0.8", "0.4-0.6", "0.1-0.3" or "0". */
  range: z.string(),
  guide: z.string(),
});

export const RubricItemSchema = z.object({
  key: z.string().min(1),
  axis: AxisSchema,
  title: z.string(),
  description: z.string(),
  weight: z.number(),
  bands: z.array(BandSchema),
});

const UsageSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number().nullable(),
  latencyMs: z.number(),
});

export const DropReasonSchema = z.enum([
  'author_error',
  'malformed',
  'ideal_unrenderable',
  'ideal_below_threshold',
  'judge_error',
  // The prompt's task data could not be given to the ideal (src/core/assets.ts codes).
  'asset_invalid',
  'asset_missing',
  'asset_outside_root',
  'assets_too_large',
]);

/** One line of `rubrica rubric synth` output. */
export const RubricRecordSchema = z.object({
  id: z.string(),
  prompt: z.string(),
  preset: PresetSchema,
  items: z.array(RubricItemSchema),
  ideal_svg: z.string().nullable(),
  /** Prompts of another domain than SVG: the domain, and the ideal's code (ideal_svg is null). */
  domain: z.enum(DOMAIN_IDS).optional(),
  ideal_code: z.string().nullable().optional(),
  /**
   * The task's data files as the prompts file gave them (inline, or `{ path }` under the data
   * root): the ideal was drawn with them, and score/serve give them to this prompt's rollouts
   * that carry none.
   */
  assets: AssetsInputSchema.optional(),
  ideal_score: z.number().nullable(),
  kept: z.boolean(),
  drop_reason: DropReasonSchema.optional(),
  /** Human-readable detail for drop_reason. */
  drop_message: z.string().optional(),
  /** Model spec of the author ("none" for universal). */
  author: z.string(),
  judge: z.string(),
  /** Versions (content hashes) of the author and judge prompts used. */
  versions: z.object({ author: z.string(), judge: z.string() }).optional(),
  usage: UsageSchema,
});

/** One rubric item: a criterion, its axis and weight (negative for a penalty). */
export type RubricItem = z.infer<typeof RubricItemSchema>;
/**
 * One line of a rubrics file: a prompt's rubric, whether it was kept (the ideal passed), the
 * ideal's code and score, and what writing it cost.
 */
export type RubricRecord = z.infer<typeof RubricRecordSchema>;
export type DropReason = z.infer<typeof DropReasonSchema>;
export type Band = z.infer<typeof BandSchema>;

/** The part of a rubric the judge needs. */
export interface JudgeRubric {
  prompt: string;
  preset: z.infer<typeof PresetSchema>;
  items: RubricItem[];
}
