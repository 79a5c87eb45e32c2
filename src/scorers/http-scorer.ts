// Client for an image-scorer service: models that only run in Python on a GPU (HPSv2, ImageReward,
// PickScore...) sit behind a tiny JSON protocol (docs/reason-svg.md):
//   POST <url>  {"images": ["<base64 PNG>", …], "prompts": ["…", …]}
//   200         {"scores": [number | null, …]}   (same length and order; null = this item failed)
//   any status  {"error": "…"}                   (the whole batch failed)
// Batches are split to `maxBatch`; each request has a timeout and is retried (p-retry) on
// network errors, timeouts, 429 and 5xx. Failures become per-item error values, never throws.
import pLimit from 'p-limit';
import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import { type ErrorValue, makeError, RubricaError } from '../core/errors.ts';
import type { ImageScorer, ScorerErrorCode, ScorerResult } from './types.ts';

/** The service URL, batch size, concurrency, timeout and retries of an HTTP image scorer. */
export interface HttpScorerOptions {
  url: string;
  /** Shown in criteria and reports; default "http". */
  name?: string;
  /** Raw scale of the service's scores, when not [0,1] (see ImageScorer.range). */
  range?: readonly [number, number];
  /** Items per request; default 16. */
  maxBatch?: number;
  /** Requests in flight; default 2. */
  concurrency?: number;
  /** Per-request timeout, ms; default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. */
  retries?: number;
  /** Backoff before the first retry, ms; default 500 (doubles each time). */
  minRetryDelayMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

const answerSchema = z.union([
  z.object({ scores: z.array(z.number().finite().nullable()) }),
  z.object({ error: z.string() }),
]);

class ScorerCallError extends RubricaError<ScorerErrorCode> {}

// Long because batching, retries and the per-item answer mapping share the scorer's limit and
// options; the protocol shapes are the zod schemas above.
/**
 * An image scorer backed by an HTTP service (POST `{images, prompts}`, answer `{scores}`):
 * batched, with a concurrency limit, a timeout and retries. A failed or malformed answer
 * becomes an error value per item, never a throw (the protocol is at the top of this file).
 * @example
 * ```ts
 * const hps = createHttpScorer({ url: 'http://127.0.0.1:8000/score', name: 'http:hpsv2' });
 * const [result] = await hps.score([png], ['a red apple']);
 * ```
 */
export function createHttpScorer(opts: HttpScorerOptions): ImageScorer {
  const doFetch = opts.fetch ?? fetch;
  const maxBatch = Math.max(1, opts.maxBatch ?? 16);
  const limit = pLimit(Math.max(1, opts.concurrency ?? 2));
  const timeoutMs = opts.timeoutMs ?? 60_000;

  async function attempt(images: Buffer[], prompts: string[], signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await doFetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: JSON.stringify({ images: images.map((b) => b.toString('base64')), prompts }),
        signal: combined,
      });
    } catch (err) {
      if (signal?.aborted) throw new AbortError('aborted');
      if (timeout.aborted) throw new ScorerCallError('timeout', `no answer within ${timeoutMs} ms`);
      throw new ScorerCallError('network', (err as Error).message);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (timeout.aborted) throw new ScorerCallError('timeout', `no answer within ${timeoutMs} ms`);
      throw new ScorerCallError('network', (err as Error).message);
    }
    let body: z.infer<typeof answerSchema> | undefined;
    try {
      const parsed = answerSchema.safeParse(JSON.parse(text));
      if (parsed.success) body = parsed.data;
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const detail = body && 'error' in body ? body.error : text.slice(0, 200);
      const e = new ScorerCallError('http_error', `HTTP ${res.status}: ${detail}`);
      // 4xx other than 429 will not get better by asking again.
      if (res.status !== 429 && res.status < 500) throw new AbortError(e);
      throw e;
    }
    if (!body)
      throw new AbortError(
        new ScorerCallError('invalid_answer', `not the protocol's shape: ${text.slice(0, 200)}`),
      );
    if ('error' in body) throw new AbortError(new ScorerCallError('service_error', body.error));
    if (body.scores.length !== images.length)
      throw new AbortError(
        new ScorerCallError(
          'invalid_answer',
          `${body.scores.length} scores for ${images.length} images`,
        ),
      );
    return body.scores;
  }

  async function scoreChunk(
    images: Buffer[],
    prompts: string[],
    signal?: AbortSignal,
  ): Promise<ScorerResult[]> {
    try {
      const scores = await pRetry(() => attempt(images, prompts, signal), {
        retries: opts.retries ?? 3,
        minTimeout: opts.minRetryDelayMs ?? 500,
        factor: 2,
        signal,
      });
      return scores.map(
        (s): ScorerResult =>
          s === null
            ? {
                ok: false,
                error: makeError('service_error', 'the service returned null for this item'),
              }
            : { ok: true, value: s },
      );
    } catch (err) {
      const error: ErrorValue<ScorerErrorCode> =
        err instanceof ScorerCallError
          ? makeError(err.code, err.message)
          : makeError('network', (err as Error).message);
      return images.map(() => ({ ok: false, error }));
    }
  }

  return {
    name: opts.name ?? 'http',
    range: opts.range,
    async score(images, prompts, signal) {
      if (images.length !== prompts.length)
        throw new RubricaError('scorer_input_mismatch', 'images and prompts differ in length');
      const chunks: Promise<ScorerResult[]>[] = [];
      for (let i = 0; i < images.length; i += maxBatch) {
        const imgs = images.slice(i, i + maxBatch);
        const ps = prompts.slice(i, i + maxBatch);
        chunks.push(limit(() => scoreChunk(imgs, ps, signal)));
      }
      return (await Promise.all(chunks)).flat();
    },
  };
}
