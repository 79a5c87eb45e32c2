// RULER: the rollout's instance rubric (six items, weights 5,5,5,4,5,5), judged on the picture.
import type { RewardResult } from '../../core/record.ts';
import type { RewardContext } from './context.ts';
import { instanceRubric } from './instance-rubric.ts';
import { judgedRubricReward } from './judged-rubric.ts';

export function rulerReward(ctx: RewardContext): Promise<RewardResult> {
  return judgedRubricReward('ruler', ctx, instanceRubric(ctx, 'ruler'));
}
