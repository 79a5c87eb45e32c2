// Public surface of the models room.
export { answerJsonSchema, type JsonSchema } from './answer-schema.ts';
export { checkModel, formatModelCheck, type ModelCheck } from './check.ts';
export {
  type CircuitEvent,
  type CircuitHealth,
  type CircuitOptions,
  type CircuitState,
  circuitOutcome,
  createCircuitBreaker,
} from './circuit-breaker.ts';
export { createModelClient, type ModelClientOptions, type RubricaModelClient } from './client.ts';
export { ModelConfigError, type ModelConfigErrorCode, ModelUnreachableError } from './errors.ts';
export { type ExtractedJson, extractJson, stripThinking } from './extract-json.ts';
export {
  costOf,
  KNOWN_PRICES,
  loadPrices,
  type Price,
  type PriceTable,
  priceFor,
  readPriceFile,
} from './prices.ts';
export { classifyError, isRetryable, isRetryableStatus, parseRetryAfter } from './retry-policy.ts';
export {
  type RoleConfig,
  type RoleFlags,
  resolveRoleConfig,
  roleVariables,
} from './role-config.ts';
export {
  isProvider,
  PROVIDERS,
  type ProviderInfo,
  parseModelSpec,
  safeParseModelSpec,
} from './spec.ts';
export type * from './types.ts';
export { validateAnswer } from './validate-answer.ts';
