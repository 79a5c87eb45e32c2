// Reason-SVG's hybrid reward (src/reward/hybrid.ts) as a reward function of the pipeline.
import type { RewardResult } from '../../core/record.ts';
import { reasonResult } from '../result.ts';
import type { RewardContext } from './context.ts';

export function hybridReward(ctx: RewardContext): Promise<RewardResult> {
  if (!ctx.hybrid) {
    return Promise.resolve(
      reasonResult(
        'hybrid',
        'infra_error',
        'reward "hybrid" needs a hybrid rewarder (CLIP or a scorer service)',
      ),
    );
  }
  return ctx.hybrid.score(ctx.inspection, ctx.prompt, ctx.signal);
}
