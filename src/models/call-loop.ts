// The retry loop around attempts of one model call: p-retry with exponential backoff and
// jitter, a server's retry-after honoured on top, the circuit breaker consulted before each
// attempt and told each outcome, and every ending — success, last failure, abort — returned
// as a ModelResult value with the usage of all attempts. The concurrency limit is not here:
// it is held only while an attempt is on the wire (wire-fetch.ts).
import pRetry from 'p-retry';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { type Attempt, AttemptError } from './attempt.ts';
import { type CircuitBreaker, circuitOutcome } from './circuit-breaker.ts';
import type { RetryBudget } from './retry-budget.ts';
import { isRetryable } from './retry-policy.ts';
import type { SchemaOutput } from './schema-output.ts';
import type { CallOptions, ChatMessage, ModelCallError, ModelResult } from './types.ts';
import { CircuitOpenedWhileQueued } from './wire-fetch.ts';

export type Parse<T> = (text: string) => { ok: true; value: T } | { ok: false; message: string };

export interface CallLoopConfig {
  attempt: Attempt;
  breaker: CircuitBreaker;
  /** What the breaker's refusal says: which model, where, why. */
  circuitMessage: () => string;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  retryAfterCapMs: number;
  /** Every attempt's usage, for the client's running total. */
  onUsage: (u: Usage) => void;
  /** Caps what retries add over all calls (retry-budget.ts); without it only maxRetries. */
  retryBudget?: RetryBudget | undefined;
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

/** What the breaker's refusal looks like to a caller: a non-retryable `circuit_open`. */
function circuitOpen(cfg: CallLoopConfig): AttemptError {
  const error: ModelCallError = { code: 'circuit_open', message: cfg.circuitMessage() };
  return new AttemptError({ error });
}

/** One attempt through the breaker; the outcome goes to the breaker. */
async function guardedAttempt(
  cfg: CallLoopConfig,
  messages: ChatMessage[],
  opts: CallOptions,
  output: SchemaOutput | undefined,
  record: (u: Usage) => void,
) {
  const { breaker } = cfg;
  if (!(await breaker.acquire())) throw circuitOpen(cfg); // fail fast, without queueing
  try {
    const answer = await cfg.attempt(messages, opts, output, record);
    breaker.record('success');
    return answer;
  } catch (err) {
    // The circuit opened while this attempt waited for a slot: it never reached the server.
    if (err instanceof CircuitOpenedWhileQueued) throw circuitOpen(cfg);
    const error = err instanceof AttemptError ? err.failure.error : undefined;
    breaker.record(error ? circuitOutcome(error) : 'neutral', error);
    throw err;
  }
}

export function createCallLoop(cfg: CallLoopConfig) {
  return async function run<T>(
    messages: ChatMessage[],
    opts: CallOptions,
    parse: Parse<T>,
    output?: SchemaOutput,
  ): Promise<ModelResult<T>> {
    let usage = emptyUsage();
    let attempts = 0;
    cfg.retryBudget?.noteCall();
    const record = (u: Usage) => {
      usage = addUsage(usage, u);
      cfg.onUsage(u);
    };
    try {
      const { value, answer } = await pRetry(
        async () => {
          attempts++;
          const answer = await guardedAttempt(cfg, messages, opts, output, record);
          const parsed = parse(answer.text);
          if (!parsed.ok) {
            const error = { code: 'invalid_answer' as const, message: parsed.message };
            throw new AttemptError({ error }, answer.text);
          }
          return { value: parsed.value, answer };
        },
        {
          retries: cfg.maxRetries,
          factor: 2,
          minTimeout: cfg.retryBaseMs,
          maxTimeout: cfg.retryMaxMs,
          randomize: true,
          signal: opts.signal,
          // Past the retry budget a retryable failure is final at once (retry-budget.ts).
          shouldRetry: ({ error }) =>
            error instanceof AttemptError &&
            isRetryable(error.failure.error) &&
            (cfg.retryBudget?.tryRetry() ?? true),
          onFailedAttempt: async ({ error, retriesLeft }) => {
            // The server's retry-after comes on top of the backoff: never sooner than asked.
            if (!(error instanceof AttemptError) || retriesLeft === 0) return;
            // No retry will follow: do not wait for one.
            if (cfg.retryBudget && !cfg.retryBudget.hasRoom()) return;
            const wait = error.failure.retryAfterMs;
            if (wait !== undefined && isRetryable(error.failure.error)) {
              await sleep(Math.min(wait, cfg.retryAfterCapMs), opts.signal);
            }
          },
        },
      );
      const { finishReason } = answer;
      const out: ModelResult<T> = {
        ok: true,
        value,
        raw: answer.text,
        usage,
        finishReason,
        attempts,
      };
      if (answer.logprobs !== undefined) out.logprobs = answer.logprobs;
      if (answer.servedBy) out.servedBy = answer.servedBy;
      return out;
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
  };
}
