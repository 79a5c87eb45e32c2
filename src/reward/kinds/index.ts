// Every reward kind, as a function from one inspected rollout to a verdict.
import type { RewardKind } from '../../core/record.ts';
import type { RewardFunction } from './context.ts';
import { directReward } from './direct.ts';
import { hybridReward } from './hybrid.ts';
import { prismaReward } from './prisma.ts';
import { rubricSReward } from './rubric-s.ts';
import { rulerReward } from './ruler.ts';
import { universalReward } from './universal.ts';

export type { PrismaGraders, RewardContext, RewardFunction } from './context.ts';

/**
 * Every reward kind as a function of one inspected rollout (RewardContext): the table the
 * scorer calls, so several rewards can be computed from one render.
 * @example
 * ```ts
 * const judge = createJudge({ client });
 * const ctx = { rollout, prompt, inspection, rubric: () => undefined, judge };
 * const r = await REWARD_FUNCTIONS.universal(ctx); // r.reward, r.status, r.tree
 * ```
 */
export const REWARD_FUNCTIONS: Readonly<Record<RewardKind, RewardFunction>> = Object.freeze({
  ruler: rulerReward,
  universal: universalReward,
  'rubric-s': rubricSReward,
  hybrid: hybridReward,
  prisma: prismaReward,
  direct: directReward,
});

/** Which rewards read an instance rubric of a preset (and so need --rubrics). */
export const INSTANCE_PRESET: Readonly<Partial<Record<RewardKind, 'ruler' | 'rubric-s'>>> = {
  ruler: 'ruler',
  'rubric-s': 'rubric-s',
};

/** Which rewards read a rubric file (--rubrics): the instance presets and PrismaForge's. */
export function needsRubrics(kind: RewardKind): boolean {
  return INSTANCE_PRESET[kind] !== undefined || kind === 'prisma';
}
