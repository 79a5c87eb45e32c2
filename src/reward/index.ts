// `rubrica/reward`: the reward arithmetic — the criterion tree, the reward kinds as functions
// of one inspection, the hybrid reward, GRPO statistics and summaries. It loads no native
// module (test/package checks this): only pure TypeScript and zod.
export {
  type CriterionGroup,
  CriterionGroupSchema,
  type CriterionLeaf,
  CriterionLeafSchema,
  type CriterionNode,
  type CriterionScore,
  type CriterionSource,
  isGroup,
} from '../core/criteria.ts';
export {
  hasGraderFault,
  REWARD_KINDS,
  type RewardKind,
  RewardKindSchema,
  type RewardResult,
  RewardResultSchema,
  type RolloutInput,
  RolloutInputSchema,
  type ScoreRecord,
  ScoreRecordSchema,
} from '../core/record.ts';
export {
  type GraderFault,
  isGraderFault,
  isGraderFaultRecord,
  isUnjudged,
  type Status,
  StatusSchema,
  statusOf,
  type UnscoreableReason,
} from '../core/status.ts';
export type { ItemVerdict } from '../judge/prisma-schema.ts';
export { type PrismaItem, type PrismaRubric, PrismaRubricSchema } from '../rubric/prisma-schema.ts';
export {
  REWARD_COMPONENT_KEYS,
  type RewardComponents,
  rewardComponents,
  sumComponents,
  zeroComponents,
} from './components.ts';
export {
  dispersionHistogram,
  dispersions,
  type PromptDispersion,
  type SelectCriteria,
  selectPrompts,
} from './dispersion.ts';
export {
  type ElasticParts,
  elasticTree,
  itemLeaf,
} from './elastic.ts';
export {
  DEFAULT_FAMILY_LAMBDAS,
  DOMAIN_FAMILY,
  type FamilyTable,
  familyOf,
  LambdaError,
  type Lambdas,
  lambdasFor,
  parseLambdaOverrides,
} from './families.ts';
export { type BlankPolicy, type Gate, pictureGate } from './gates.ts';
export { dispersion, GRPO_EPSILON, groupAdvantages, sampleStd } from './grpo.ts';
export {
  checkHybridConfig,
  createHybridRewarder,
  DEFAULT_HYBRID_LAMBDAS,
  type HybridConfig,
  type HybridLambdas,
  type HybridRewarder,
  type HybridRewarderOptions,
  hybridResult,
  resolveLambdas,
  scoreHybrid,
} from './hybrid.ts';
export {
  INSTANCE_PRESET,
  needsRubrics,
  type PrismaGraders,
  REWARD_FUNCTIONS,
  type RewardContext,
  type RewardFunction,
} from './kinds/index.ts';
export { reasonResult, treeResult } from './result.ts';
export {
  formatScoreSummary,
  formatUsage,
  type ScoreSummary,
  summariseScores,
} from './summary.ts';
export { type ThinkMode, thinkTerm } from './think.ts';
export {
  evaluateTree,
  flattenLeaves,
  group,
  leaf,
  nodeValue,
  type TreeOutcome,
} from './tree.ts';
export {
  DROP_AXES,
  type DropAxis,
  isDropAxis,
  type WeightedRewardOptions,
  weightedReward,
} from './weighted.ts';
