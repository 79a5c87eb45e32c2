// Rubric-S: the stricter instance rubric of RULER's ablation (five items, no style axis, and a
// text-penalty item of weight −2), judged on the picture.
import type { RewardResult } from '../../core/record.ts';
import type { RewardContext } from './context.ts';
import { instanceRubric } from './instance-rubric.ts';
import { judgedRubricReward } from './judged-rubric.ts';

export function rubricSReward(ctx: RewardContext): Promise<RewardResult> {
  return judgedRubricReward('rubric-s', ctx, instanceRubric(ctx, 'rubric-s'));
}
