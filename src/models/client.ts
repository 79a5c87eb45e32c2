// createModelClient: a ModelClient over the AI SDK with our own retry policy (p-retry,
// exponential backoff with jitter, retry-after honoured), a per-call timeout, a concurrency
// limit per client, tolerant JSON answers validated by zod, and usage/cost on every result.
import { generateText, type LanguageModel, type OutputInterface } from 'ai';
import pLimit from 'p-limit';
import pRetry from 'p-retry';
import type { z } from 'zod';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { answerJsonSchema } from './answer-schema.ts';
import { extractJson } from './extract-json.ts';
import { toModelMessages } from './messages.ts';
import { costOf, loadPrices, type PriceTable, priceFor } from './prices.ts';
import { languageModelFor } from './providers.ts';
import { type ClassifiedFailure, classifyError, isRetryable } from './retry-policy.ts';
import { resolveRoleConfig } from './role-config.ts';
import { parseModelSpec } from './spec.ts';
import type {
  CallOptions,
  ChatMessage,
  FinishReason,
  ModelClient,
  ModelResult,
  ModelSpec,
  ObjectCallOptions,
  Role,
} from './types.ts';
import { validateAnswer } from './validate-answer.ts';

export interface ModelClientOptions {
  role: Role;
  /** `--<role>-base-url`; else RUBRICA_<ROLE>_BASE_URL; else the provider's default. */
  baseUrl?: string;
  /** Else RUBRICA_<ROLE>_API_KEY; else the provider's usual variable. */
  apiKey?: string;
  /** Per attempt. Default 120 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Attempts in flight at once for this client. Default 16. */
  concurrency?: number;
  /** A price table or a JSON file path, over RUBRICA_PRICES and the built-ins. */
  prices?: PriceTable | string;
  /** First backoff delay; doubles each retry, times a random factor in [1,2). Default 1000 ms. */
  retryBaseMs?: number;
  /** Longest backoff delay. Default 30 000 ms. */
  retryMaxMs?: number;
  /** Longest wait a `retry-after` header may impose. Default 60 000 ms. */
  retryAfterCapMs?: number;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

/** A ModelClient that also reports what it has spent so far. */
export interface RubricaModelClient extends ModelClient {
  readonly baseUrl: string;
  /** Usage summed over every call this client made. */
  totalUsage(): Usage;
}

/** One failed attempt, carried through p-retry. */
class AttemptError extends Error {
  constructor(
    readonly failure: ClassifiedFailure,
    readonly raw?: string,
  ) {
    super(failure.error.message);
  }
}

interface Answer {
  text: string;
  finishReason: FinishReason;
}

type Parse<T> = (text: string) => { ok: true; value: T } | { ok: false; message: string };

/** An output mode that asks for JSON with a schema but leaves parsing to us (tolerantly). */
function schemaOutput(jsonSchema: unknown, name: string): OutputInterface<string, string, never> {
  return {
    name: 'rubrica-json',
    responseFormat: Promise.resolve({ type: 'json', schema: jsonSchema as never, name }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

/** Waits `ms`, or less if the caller aborts (p-retry then reports the abort). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function createModelClient(
  spec: string | ModelSpec,
  options: ModelClientOptions,
): RubricaModelClient {
  const s = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  const env = options.env ?? process.env;
  const flags = { provider: s.provider, baseUrl: options.baseUrl, apiKey: options.apiKey };
  const config = resolveRoleConfig(options.role, flags, env);
  const model: LanguageModel = languageModelFor(s, {
    role: options.role,
    config,
    fetch: options.fetch,
    headers: options.headers,
  });
  const price = priceFor(s, loadPrices(options.prices, env));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 4;
  const retryAfterCapMs = options.retryAfterCapMs ?? 60_000;
  const limit = pLimit(options.concurrency ?? 16);
  // OpenAI's strict mode rejects schemas with optional fields; the schema still guides the
  // model and our validation catches the rest.
  const providerOptions: Record<string, Record<string, boolean>> = s.provider === 'openai'
    ? { openai: { strictJsonSchema: false } }
    : {};
  let total = emptyUsage();

  async function attempt(
    messages: ChatMessage[],
    opts: CallOptions,
    output: OutputInterface<string, string, never> | undefined,
    record: (u: Usage) => void,
  ): Promise<Answer> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const t0 = performance.now();
    const account = (input: number, out: number) =>
      record({
        calls: 1,
        inputTokens: input,
        outputTokens: out,
        costUsd: costOf(price, input, out),
        latencyMs: performance.now() - t0,
      });
    try {
      const r = await generateText({
        model,
        messages: toModelMessages(messages),
        // Our system turns are rubrica's own prompts (the judge's rules), not user input.
        allowSystemInMessages: true,
        ...(output ? { output } : {}),
        ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
        ...(opts.maxTokens !== undefined ? { maxOutputTokens: opts.maxTokens } : {}),
        providerOptions,
        abortSignal: signal,
        maxRetries: 0, // our p-retry loop is the only retry policy
      });
      account(r.totalUsage.inputTokens ?? 0, r.totalUsage.outputTokens ?? 0);
      return { text: r.text, finishReason: r.finishReason };
    } catch (err) {
      account(0, 0);
      const signals = { timedOut: timeout.aborted, aborted: !!opts.signal?.aborted, timeoutMs };
      throw new AttemptError(classifyError(err, signals));
    }
  }

  async function run<T>(
    messages: ChatMessage[],
    opts: CallOptions,
    parse: Parse<T>,
    output?: OutputInterface<string, string, never>,
  ): Promise<ModelResult<T>> {
    let usage = emptyUsage();
    let attempts = 0;
    const record = (u: Usage) => {
      usage = addUsage(usage, u);
      total = addUsage(total, u);
    };
    try {
      const done = await pRetry(
        async () => {
          attempts++;
          const answer = await limit(() => attempt(messages, opts, output, record));
          const parsed = parse(answer.text);
          if (!parsed.ok) {
            const error = { code: 'invalid_answer' as const, message: parsed.message };
            throw new AttemptError({ error }, answer.text);
          }
          return { value: parsed.value, answer };
        },
        {
          retries: maxRetries,
          factor: 2,
          minTimeout: options.retryBaseMs ?? 1000,
          maxTimeout: options.retryMaxMs ?? 30_000,
          randomize: true,
          signal: opts.signal,
          shouldRetry: ({ error }) =>
            error instanceof AttemptError && isRetryable(error.failure.error),
          onFailedAttempt: async ({ error, retriesLeft }) => {
            // The server's retry-after comes on top of the backoff: never sooner than asked.
            if (!(error instanceof AttemptError) || retriesLeft === 0) return;
            const wait = error.failure.retryAfterMs;
            if (wait !== undefined && isRetryable(error.failure.error)) {
              await sleep(Math.min(wait, retryAfterCapMs), opts.signal);
            }
          },
        },
      );
      const { value, answer } = done;
      return {
        ok: true,
        value,
        raw: answer.text,
        usage,
        finishReason: answer.finishReason,
        attempts,
      };
    } catch (err) {
      if (err instanceof AttemptError) {
        const out: ModelResult<T> = { ok: false, error: err.failure.error, usage, attempts };
        if (err.raw !== undefined) out.raw = err.raw;
        return out;
      }
      // p-retry rejects with the signal's reason when the caller aborts between attempts.
      const message = opts.signal?.aborted ? 'the call was aborted' : String(err);
      const code = opts.signal?.aborted ? ('aborted' as const) : ('network' as const);
      return { ok: false, error: { code, message }, usage, attempts };
    }
  }

  return {
    spec: s,
    baseUrl: config.baseUrl ?? '',
    totalUsage: () => total,
    generateText(messages, opts = {}) {
      return run(messages, opts, (text) => ({ ok: true, value: text }));
    },
    async generateObject<T>(
      messages: ChatMessage[],
      schema: z.ZodType<T>,
      schemaName: string,
      opts: ObjectCallOptions = {},
    ) {
      // The request may carry a stricter schema than the answer is parsed with (see
      // ObjectCallOptions.requestSchema); by default both are `schema`.
      const jsonSchema = await answerJsonSchema(opts.requestSchema ?? schema);
      const parse: Parse<T> = (text) => {
        const found = extractJson(text);
        if (!found.ok) return { ok: false, message: found.reason };
        return validateAnswer(schema, found.value);
      };
      return run(messages, opts, parse, schemaOutput(jsonSchema, schemaName));
    },
  };
}
