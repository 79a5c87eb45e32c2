// Every reward kind, as a function from one inspected rollout to a verdict.
import type { RewardKind } from '../../core/record.ts';
import type { RewardFunction } from './context.ts';
import { hybridReward } from './hybrid.ts';
import { rubricSReward } from './rubric-s.ts';
import { rulerReward } from './ruler.ts';
import { universalReward } from './universal.ts';

export type { RewardContext, RewardFunction } from './context.ts';

export const REWARD_FUNCTIONS: Readonly<Record<RewardKind, RewardFunction>> = Object.freeze({
  ruler: rulerReward,
  universal: universalReward,
  'rubric-s': rubricSReward,
  hybrid: hybridReward,
});

/** Which rewards read an instance rubric of a preset (and so need --rubrics). */
export const INSTANCE_PRESET: Readonly<Partial<Record<RewardKind, 'ruler' | 'rubric-s'>>> = {
  ruler: 'ruler',
  'rubric-s': 'rubric-s',
};
