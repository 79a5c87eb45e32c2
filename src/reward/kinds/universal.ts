// The universal rubric: one rubric for every prompt (the papers' evaluation metric), judged on
// the picture against the rollout's prompt text.
import type { RewardResult } from '../../core/record.ts';
import { universalItems } from '../../rubric/universal.ts';
import type { RewardContext } from './context.ts';
import { judgedRubricReward } from './judged-rubric.ts';

export function universalReward(ctx: RewardContext): Promise<RewardResult> {
  const rubric =
    ctx.prompt === null
      ? 'no prompt text for the universal rubric (give "prompt", or a prompt_id found in --rubrics)'
      : { items: universalItems(), prompt: ctx.prompt };
  return judgedRubricReward('universal', ctx, rubric);
}
