// Contracts of the scorers room: a scorer turns (rendered image, prompt) pairs into numbers
// (CLIP cosine, LAION aesthetic, HPSv2 over HTTP, ...). One interface, so the hybrid reward
// and evaluations never care whether the model runs in-process or behind a URL.
import type { ErrorValue } from '../core/errors.ts';

export type ScorerErrorCode =
  | 'model_load' // the model folder / weights file could not be loaded
  | 'bad_image' // the PNG could not be decoded
  | 'inference' // the model raised during inference
  | 'http_error' // the scorer service answered with a non-2xx status
  | 'timeout' // the scorer service did not answer in time
  | 'network' // connection refused / reset
  | 'invalid_answer' // the service answered, but not in the protocol's shape
  | 'service_error'; // the service answered `{"error": ...}` or null for this item

/** One picture's score, or why it has none. */
export type ScorerResult =
  | { ok: true; value: number }
  | { ok: false; error: ErrorValue<ScorerErrorCode> };

/**
 * A scorer of pictures against prompts (CLIP, aesthetic, an HTTP service): one result per
 * pair, failures as values.
 */
export interface ImageScorer {
  /** Short stable name, e.g. "clip", "laion-aesthetic", "http:hpsv2". */
  readonly name: string;
  /**
   * The scale the raw values live on, when it is not [0,1]: the hybrid reward maps
   * value → (value − lo) / (hi − lo), clamped to [0,1]. Absent: values are used as they are.
   */
  readonly range?: readonly [number, number];
  /**
   * Scores every (images[i], prompts[i]) pair; always resolves with one result per pair, in
   * order. Failures are values, never throws.
   */
  score(images: Buffer[], prompts: string[], signal?: AbortSignal): Promise<ScorerResult[]>;
  close?(): Promise<void>;
}

export function scorerError(code: ScorerErrorCode, message: string): ScorerResult {
  return { ok: false, error: { code, message } };
}
