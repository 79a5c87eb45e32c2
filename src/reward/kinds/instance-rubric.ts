// Finds the kept instance rubric of a rollout for a preset, or says why there is none.
import type { PresetName } from '../../rubric/presets.ts';
import type { RewardContext } from './context.ts';
import type { JudgedRubric } from './judged-rubric.ts';

export function instanceRubric(ctx: RewardContext, preset: PresetName): JudgedRubric | string {
  const r = ctx.rubric(preset);
  if (r) return { items: r.items, prompt: r.prompt };
  const id = JSON.stringify(ctx.rollout.prompt_id ?? null);
  return `no kept ${preset} rubric for prompt_id ${id} or its prompt text`;
}
