// One HTTP attempt at a model call through the AI SDK: its own timeout joined with the
// caller's signal, usage and cost accounted whether it succeeds or fails, and any failure
// classified (retry-policy.ts) and thrown as an AttemptError for the retry loop.
import { generateText, type LanguageModel } from 'ai';
import type { Usage } from '../core/usage.ts';
import {
  logprobOptions,
  readLogprobs,
  readServedBy,
  type ServedBy,
  type TokenLogprob,
} from './logprobs.ts';
import { toModelMessages } from './messages.ts';
import { costOf, type priceFor } from './prices.ts';
import { type ClassifiedFailure, classifyError } from './retry-policy.ts';
import type { SchemaOutput } from './schema-output.ts';
import type { CallOptions, ChatMessage, FinishReason, Provider } from './types.ts';
import { CircuitOpenedWhileQueued } from './wire-fetch.ts';

/** The attempt's provider options plus, when asked, the provider's logprob request. */
function withLogprobs(cfg: AttemptConfig, top: number | undefined) {
  if (!top || !cfg.provider) return cfg.providerOptions;
  const out: Record<string, Record<string, unknown>> = { ...cfg.providerOptions };
  for (const [k, v] of Object.entries(logprobOptions(cfg.provider, top)))
    out[k] = { ...out[k], ...v };
  return out as AttemptConfig['providerOptions'];
}

/** One failed attempt, carried through p-retry. */
export class AttemptError extends Error {
  constructor(
    readonly failure: ClassifiedFailure,
    readonly raw?: string,
  ) {
    super(failure.error.message);
  }
}

export interface Answer {
  text: string;
  finishReason: FinishReason;
  /** Read from the response body only when the call asked for them. */
  logprobs?: TokenLogprob[] | null;
  servedBy?: ServedBy;
}

export interface AttemptConfig {
  model: LanguageModel;
  price: ReturnType<typeof priceFor>;
  timeoutMs: number;
  providerOptions: Record<string, Record<string, boolean>>;
  /** The provider, so a call asking for logprobs asks in the provider's own words. */
  provider?: Provider;
}

export type Attempt = (
  messages: ChatMessage[],
  opts: CallOptions,
  output: SchemaOutput | undefined,
  record: (u: Usage) => void,
) => Promise<Answer>;

export function createAttempt(cfg: AttemptConfig): Attempt {
  const { model, price, timeoutMs } = cfg;
  return async (messages, opts, output, record) => {
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
    const providerOptions = withLogprobs(cfg, opts.topLogprobs);
    try {
      const r = await generateText({
        model,
        messages: toModelMessages(messages),
        // Our system turns are rubrica's own prompts (the judge's rules), not user input.
        allowSystemInMessages: true,
        ...(output ? { output } : {}),
        ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
        ...(opts.maxTokens !== undefined ? { maxOutputTokens: opts.maxTokens } : {}),
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        providerOptions,
        abortSignal: signal,
        maxRetries: 0, // our p-retry loop is the only retry policy
      });
      account(r.totalUsage.inputTokens ?? 0, r.totalUsage.outputTokens ?? 0);
      const body = r.response.body;
      return {
        text: r.text,
        finishReason: r.finishReason,
        servedBy: readServedBy(body),
        ...(opts.topLogprobs ? { logprobs: readLogprobs(body) } : {}),
      };
    } catch (err) {
      // Never sent (the circuit opened while it waited for a slot): not a call, not a
      // failure of the server; the call loop reports it as the open circuit it is.
      if (err instanceof CircuitOpenedWhileQueued) throw err;
      account(0, 0);
      const signals = { timedOut: timeout.aborted, aborted: !!opts.signal?.aborted, timeoutMs };
      throw new AttemptError(classifyError(err, signals));
    }
  };
}
