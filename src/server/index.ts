// Public surface of the server room: the reward service for RL trainers.
export {
  type Admission,
  createAdmission,
  DEFAULT_LIMITS as DEFAULT_SERVER_LIMITS,
  resolveLimits as resolveServerLimits,
  type ServerLimits,
} from './admission.ts';
export { createServer, type ServerOptions } from './app.ts';
export { validateToken } from './auth.ts';
export { type BodyBudget, createBodyBudget } from './body-limit.ts';
export { responseFromQuery, stripEndTokens, userTextFromPrompt } from './chat-text.ts';
export { ServerConfigError } from './config-error.ts';
export { checkExposure, isLoopback } from './exposure.ts';
export {
  createGatherer,
  DEFAULT_GATHER,
  type Gathered,
  type Gatherer,
  type GatherOptions,
} from './gather.ts';
export { groupKey, groupStats, imputedScores } from './groups.ts';
export { createServerMetrics, type ServerMetrics } from './metrics.ts';
export { type JudgeReadiness, judgeReadiness, type Readiness } from './readiness.ts';
export {
  ComponentKeysSchema,
  ComponentsSchema,
  ErrorSchema,
  type GroupStats,
  GroupStatsSchema,
  HealthSchema,
  JudgeModeSchema,
  type OpenRlhfRequest,
  OpenRlhfRequestSchema,
  OpenRlhfResponseSchema,
  ReadySchema,
  RewardRequestSchema,
  type RewardsRequest,
  RewardsRequestSchema,
  RewardsResponseSchema,
  ScoreResultSchema,
  type SlimeRequest,
  SlimeRequestSchema,
  SlimeResponseSchema,
  type VerifyRequest,
  VerifyRequestSchema,
  VerifyResponseSchema,
  type VerlRequest,
  VerlRequestSchema,
  VerlResponseSchema,
  type VerlResult,
  VerlResultSchema,
} from './schemas.ts';
export { type RunningServer, type StartOptions, startServer } from './start.ts';
export {
  componentField,
  type OpenRlhfResult,
  toOpenRlhfResult,
  toSlimeResult,
  toVerifyResult,
  toVerlResults,
  trainerValues,
} from './trainer-shapes.ts';
