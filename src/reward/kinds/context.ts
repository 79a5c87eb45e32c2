// What a reward function gets: one inspected rollout plus the graders it may ask. A reward is
// a function from this to a verdict (a criterion tree evaluated by src/reward/tree.ts), so
// several rewards can be computed from one inspection.
import type { RewardResult, RolloutInput } from '../../core/record.ts';
import type { Inspection } from '../../inspect/types.ts';
import type { Judge } from '../../judge/judge.ts';
import type { PrismaJudge } from '../../judge/prisma-judges.ts';
import type { PresetName } from '../../rubric/presets.ts';
import type { PrismaRubric } from '../../rubric/prisma-schema.ts';
import type { RubricRecord } from '../../rubric/schema.ts';
import type { FamilyTable } from '../families.ts';
import type { BlankPolicy } from '../gates.ts';
import type { HybridRewarder } from '../hybrid.ts';
import type { DropAxis } from '../weighted.ts';

/**
 * What a reward function reads: the rollout, its prompt and inspection, its rubrics and
 * the graders it may ask.
 */
export interface RewardContext {
  rollout: RolloutInput;
  /** The prompt text the picture was drawn for (the rollout's, else its rubric file's). */
  prompt: string | null;
  inspection: Inspection;
  /** The kept rubric of this rollout for a preset, if any. */
  rubric(preset: PresetName): RubricRecord | undefined;
  /** The VLM judge (null when none is configured). */
  judge: Judge | null;
  dropAxis?: DropAxis;
  blankPolicy?: BlankPolicy;
  hybrid?: HybridRewarder;
  signal?: AbortSignal;
  /** The kept PrismaForge rubric of this rollout, if any (rewards prisma, direct). */
  prismaRubric?: () => PrismaRubric | undefined;
  /** PrismaForge's judges and λ table (rewards prisma, direct). */
  prisma?: PrismaGraders;
  /** Level of each reward's interval (JudgingStrategy.intervalLevel; default 0.9). */
  intervalLevel?: number;
}

/** PrismaForge's graders: a code judge, a vision judge (also the holistic one), the λ table. */
export interface PrismaGraders {
  /** Reads the code (text only). */
  codeJudge: PrismaJudge;
  /** Looks at the picture; also gives the holistic (direct) score. */
  visionJudge: PrismaJudge;
  lambdas: FamilyTable;
}

/**
 * A reward kind: one inspected rollout in, one result out. A failed grader resolves a
 * `grader_error` result, never a zero.
 */
export type RewardFunction = (ctx: RewardContext) => Promise<RewardResult>;
