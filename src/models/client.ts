// createModelClient: a ModelClient over the AI SDK with our own retry policy (p-retry,
// exponential backoff with jitter, retry-after honoured), a per-call timeout, a concurrency
// limit per client, a circuit breaker that stops calling a server that keeps failing,
// tolerant JSON answers validated by zod, and usage/cost on every result. This file only
// wires the parts: one attempt (attempt.ts), the retry loop (call-loop.ts), the breaker
// (circuit-breaker.ts) and the structured-output mode (schema-output.ts).
import type { LanguageModel } from 'ai';
import pLimit from 'p-limit';
import type { z } from 'zod';
import { readEnv } from '../core/env.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { answerJsonSchema } from './answer-schema.ts';
import { createAttempt } from './attempt.ts';
import { createCallLoop, type Parse } from './call-loop.ts';
import {
  type CircuitEvent,
  type CircuitHealth,
  type CircuitOptions,
  createCircuitBreaker,
} from './circuit-breaker.ts';
import { extractJson } from './extract-json.ts';
import { type HedgeOptions, type HedgeStats, hedgedFetch } from './hedge.ts';
import { type JudgeServerStats, parseBaseUrls } from './judge-servers.ts';
import { loadPrices, type PriceTable, priceFor } from './prices.ts';
import { languageModelFor } from './providers.ts';
import {
  createRetryBudget,
  type RetryBudget,
  type RetryBudgetOptions,
  type RetryBudgetStats,
} from './retry-budget.ts';
import { resolveRoleConfig } from './role-config.ts';
import { schemaOutput } from './schema-output.ts';
import type { CallGate } from './shared-budget.ts';
import { parseModelSpec } from './spec.ts';
import type { ChatMessage, ModelClient, ModelSpec, ObjectCallOptions, Role } from './types.ts';
import { validateAnswer } from './validate-answer.ts';
import { limitedFetch } from './wire-fetch.ts';

/**
 * The role (which RUBRICA_<ROLE>_* variables apply), base URL, key, timeouts, retries,
 * concurrency, prices and circuit breaker of one client. Unset values come from the
 * environment, then from the provider's defaults.
 */
export interface ModelClientOptions {
  role: Role;
  /**
   * `--<role>-base-url`; else RUBRICA_<ROLE>_BASE_URL; else the provider's default. A comma
   * list (or RUBRICA_JUDGE_BASE_URLS for the judge) names several servers (judge-servers.ts).
   */
  baseUrl?: string;
  /** Hedged attempts (hedge.ts): off unless asked (`serve` asks for auto: after the recent p95, at most 5 % of requests). */
  hedge?: HedgeOptions;
  /** Else RUBRICA_<ROLE>_API_KEY; else the provider's usual variable. */
  apiKey?: string;
  /** Per attempt. Default 120 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Attempts in flight at once for this client. Default 16. */
  concurrency?: number;
  /**
   * Attempts run through this gate instead of the client's own p-limit of `concurrency`:
   * a judge budget shared by replicas (createSharedBudget, src/models/shared-budget.ts).
   */
  gate?: CallGate;
  /** A price table or a JSON file path, over RUBRICA_PRICES and the built-ins. */
  prices?: PriceTable | string;
  /** First backoff delay; doubles each retry, times a random factor in [1,2). Default 1000 ms. */
  retryBaseMs?: number;
  /** Longest backoff delay. Default 30 000 ms. */
  retryMaxMs?: number;
  /** Longest wait a `retry-after` header may impose. Default 60 000 ms. */
  retryAfterCapMs?: number;
  /**
   * Retries may add at most this share of calls over a sliding window (default 20 % over
   * 10 s, at least 10 per window); past it a failure is final at once. A budget object may be
   * shared by clients; false: only maxRetries limits retries.
   */
  retryBudget?: RetryBudgetOptions | RetryBudget | false;
  /** Circuit breaker settings, or false to call a failing server every time. */
  circuitBreaker?: CircuitOptions | false;
  /** Told when the circuit opens, probes or closes (the CLI logs it). */
  onCircuitChange?: (e: CircuitEvent & { model: string; baseUrl: string }) => void;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

/** A ModelClient that also reports what it has spent so far. */
export interface RubricaModelClient extends ModelClient {
  readonly baseUrl: string;
  /** Usage summed over every call this client made. */
  totalUsage(): Usage;
  /** The circuit breaker's view of the server: state, failures in a row, last success. */
  health(): CircuitHealth;
  /** The retry budget's figures (null when the client has none). */
  retryStats(): RetryBudgetStats | null;
  /** Hedges sent, won and dropped. */
  hedgeStats(): HedgeStats;
  /** Each judge server's load, failures and ejection. */
  serverStats(): JudgeServerStats[];
}

/** Several base URLs: a comma list in the flag, else RUBRICA_JUDGE_BASE_URLS (judge only). */
function baseUrlList(o: ModelClientOptions, env: NodeJS.ProcessEnv): string[] | undefined {
  if (o.baseUrl?.includes(',')) return parseBaseUrls(o.baseUrl);
  const many =
    o.role === 'judge' && !o.baseUrl ? readEnv('RUBRICA_JUDGE_BASE_URLS', env) : undefined;
  return many?.trim() ? parseBaseUrls(many) : undefined;
}

/**
 * A client for a `provider:model` spec (vllm, sglang, ollama, openai, anthropic, google) in a
 * role, with retries, a per-attempt timeout, a concurrency limit, a circuit breaker and usage
 * with prices. Throws ModelConfigError at once on a bad spec, base URL or price table, a
 * hosted provider without a key or a compatible server without a base URL; a failed call
 * later is a value (`ok: false`), not a throw.
 * @example
 * ```ts
 * const judge = createModelClient('vllm:Qwen/Qwen3-VL-8B-Instruct', { role: 'judge' });
 * ```
 */
export function createModelClient(
  spec: string | ModelSpec,
  options: ModelClientOptions,
): RubricaModelClient {
  const s = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  const env = options.env ?? process.env;
  const list = baseUrlList(options, env);
  const flags = {
    provider: s.provider,
    baseUrl: list?.[0] ?? options.baseUrl,
    apiKey: options.apiKey,
  };
  const config = resolveRoleConfig(options.role, flags, env);
  const baseUrl = config.baseUrl ?? '';
  // Every further server is checked like the first (a bad URL is a ModelConfigError now).
  const urls = [
    baseUrl,
    ...(list ?? [])
      .slice(1)
      .map((u) => resolveRoleConfig(options.role, { ...flags, baseUrl: u }, env).baseUrl ?? u),
  ];
  const breaker = createCircuitBreaker(
    // false: a threshold no run reaches, so the circuit never opens.
    options.circuitBreaker === false
      ? { failureThreshold: Number.MAX_SAFE_INTEGER }
      : options.circuitBreaker,
    (e) => options.onCircuitChange?.({ ...e, model: s.id, baseUrl }),
  );
  // The limit is held on the wire only (wire-fetch.ts); a fetch given by the caller is
  // looked up per request, as the SDK would. Hedges and the choice of server sit above it,
  // so a hedge takes a slot like any attempt (it shares the judge budget).
  const wire = hedgedFetch(
    limitedFetch(
      () => options.fetch ?? globalThis.fetch,
      options.gate ?? pLimit(options.concurrency ?? 16),
      () => breaker.blocked(),
    ),
    urls,
    options.hedge,
  );
  const model: LanguageModel = languageModelFor(s, {
    role: options.role,
    config,
    fetch: wire.fetch,
    headers: options.headers,
  });
  let total = emptyUsage();
  const rb = options.retryBudget;
  const retryBudget =
    rb === false ? undefined : rb && 'tryRetry' in rb ? rb : createRetryBudget(rb ?? {});
  const run = createCallLoop({
    retryBudget,
    attempt: createAttempt({
      model,
      price: priceFor(s, loadPrices(options.prices, env)),
      timeoutMs: options.timeoutMs ?? 120_000,
      // OpenAI's strict mode rejects schemas with optional fields; the schema still guides
      // the model and our validation catches the rest.
      providerOptions: s.provider === 'openai' ? { openai: { strictJsonSchema: false } } : {},
      provider: s.provider,
    }),
    breaker,
    circuitMessage: () => {
      const h = breaker.health();
      const last = h.lastError ? `; last: ${h.lastError.code}: ${h.lastError.message}` : '';
      const wait =
        h.retryInMs !== undefined ? `; next try in ${Math.ceil(h.retryInMs / 1000)} s` : '';
      return `circuit open: ${s.id} at ${baseUrl} failed ${h.consecutiveFailures} attempts in a row${last}${wait}`;
    },
    maxRetries: options.maxRetries ?? 4,
    retryBaseMs: options.retryBaseMs ?? 1000,
    retryMaxMs: options.retryMaxMs ?? 30_000,
    retryAfterCapMs: options.retryAfterCapMs ?? 60_000,
    onUsage: (u: Usage) => {
      options.gate?.charge(u.inputTokens + u.outputTokens);
      total = addUsage(total, u);
    },
  });

  return {
    spec: s,
    baseUrl,
    totalUsage: () => total,
    health: () => breaker.health(),
    retryStats: () => retryBudget?.stats() ?? null,
    hedgeStats: () => wire.stats(),
    serverStats: () => wire.servers.stats(),
    generateText(messages, opts = {}) {
      return run(messages, opts, (text) => ({ ok: true, value: text }));
    },
    async generateObject<T>(
      messages: ChatMessage[],
      schema: z.ZodType<T>,
      schemaName: string,
      opts: ObjectCallOptions = {},
    ) {
      const parse: Parse<T> = (text) => {
        const found = extractJson(text);
        if (!found.ok) return { ok: false, message: found.reason };
        return validateAnswer(schema, found.value);
      };
      // The request may carry a stricter schema than the answer is parsed with (see
      // ObjectCallOptions.requestSchema); by default both are `schema`.
      const jsonSchema = await answerJsonSchema(opts.requestSchema ?? schema);
      return run(messages, opts, parse, schemaOutput(jsonSchema, schemaName));
    },
  };
}
