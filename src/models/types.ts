// Contracts of the models room. A model is an HTTP service named `provider:model`; the
// rest of rubrica talks to it only through ModelClient and never sees HTTP.
import type { z } from 'zod';
import type { Usage } from '../core/usage.ts';
import type { ServedBy, TokenLogprob } from './logprobs.ts';

export type Provider =
  | 'vllm'
  | 'sglang'
  | 'ollama'
  | 'openai-compatible'
  | 'openai'
  | 'anthropic'
  | 'google';

/** What a model is used for; each role has its own RUBRICA_<ROLE>_* settings. */
export type Role = 'author' | 'judge' | 'policy';

/** A parsed `provider:model` spec. */
export interface ModelSpec {
  provider: Provider;
  model: string;
  /** The spec as the user wrote it, e.g. "vllm:Qwen/Qwen3-VL-8B-Instruct". */
  id: string;
}

export type ContentPart =
  | { type: 'text'; text: string }
  /** A PNG as a `data:image/png;base64,…` URI (Ollama rejects http URLs). */
  | { type: 'image'; dataUrl: string };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface CallOptions {
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /**
   * Extra HTTP headers for this call, e.g. `cache-control: no-cache` on a check that must
   * reach the model itself, not an answer kept by a caching proxy (rubrica judge-proxy).
   */
  headers?: Record<string, string>;
  /**
   * Ask for token logprobs with this many alternatives per position (capped at 20); the
   * answer then carries `logprobs` when the server returns them.
   */
  topLogprobs?: number;
  /** Sampling seed sent to the server (servers that honour it repeat a sampled answer). */
  seed?: number;
}

/** Options of a structured call. */
export interface ObjectCallOptions extends CallOptions {
  /**
   * The schema to send when it is stricter than the one the answer is parsed with. A server
   * doing guided decoding produces exactly what it allows; an unguided model that misses it
   * still gets its answer through the looser parse, so the caller's own validator can reject
   * it with a reason instead of the client retrying it. Must allow nothing the parse schema
   * rejects.
   */
  requestSchema?: z.ZodType;
}

export interface ModelCallError {
  /**
   * http_error: the server answered 4xx/5xx (`status` set); timeout: no answer in time;
   * invalid_answer: the text held no JSON or it failed the schema; network: no connection;
   * bad_response: a 2xx whose body was not a chat response (malformed JSON, no choices);
   * aborted: the caller's signal fired; circuit_open: not sent, because the server failed
   * too many attempts in a row (circuit-breaker.ts).
   */
  code:
    | 'http_error'
    | 'timeout'
    | 'invalid_answer'
    | 'network'
    | 'bad_response'
    | 'aborted'
    | 'circuit_open';
  message: string;
  status?: number;
}

/** Why the model stopped: `length` means the answer was cut at the token limit. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

export type ModelResult<T> =
  | {
      ok: true;
      value: T;
      raw: string;
      /** Summed over every attempt, failed ones included (they cost tokens too). */
      usage: Usage;
      finishReason?: FinishReason;
      /** HTTP attempts made (1 when the first one succeeded). */
      attempts?: number;
      /** Token logprobs of the answer, when asked (`topLogprobs`) and returned; else null. */
      logprobs?: TokenLogprob[] | null;
      /** The served model and `system_fingerprint`, when the server says. */
      servedBy?: ServedBy;
    }
  | { ok: false; error: ModelCallError; raw?: string; usage: Usage; attempts?: number };

export interface ModelClient {
  readonly spec: ModelSpec;
  /** The server asked (part of every answer's cache key); absent for stand-in clients. */
  readonly baseUrl?: string;
  /** Free text (used for the ideal SVG and policy sampling). */
  generateText(messages: ChatMessage[], opts?: CallOptions): Promise<ModelResult<string>>;
  /**
   * A structured answer: the JSON Schema of `schema` travels in `response_format`
   * (OpenAI-compatible servers) and the answer is parsed tolerantly (fences, <think>,
   * prose around the JSON) then validated; invalid answers are retried, then returned
   * as `invalid_answer` errors, never thrown.
   */
  generateObject<T>(
    messages: ChatMessage[],
    schema: z.ZodType<T>,
    schemaName: string,
    opts?: ObjectCallOptions,
  ): Promise<ModelResult<T>>;
}
