// Gathers single (picture, prompt) requests that arrive within a few milliseconds into one
// scorer call, so CLIP runs one forward pass for many pictures while every rollout is scored
// on its own path. A caller's abort stops its own wait only: the batch it joined still
// serves the other rollouts in it.
import type { ImageScorer, ScorerResult } from './types.ts';
import { scorerError } from './types.ts';

export interface ScoreBatcherOptions {
  /** Requests gathered into one scorer call; default 16. */
  maxBatch?: number;
  /** How long the first waiting request waits for company, ms; default 10. */
  windowMs?: number;
}

export interface ScoreBatcher {
  score(png: Buffer, prompt: string, signal?: AbortSignal): Promise<ScorerResult>;
  /** Sends what is waiting now. */
  flush(): void;
}

interface Waiting {
  png: Buffer;
  prompt: string;
  resolve: (r: ScorerResult) => void;
}

export function createScoreBatcher(
  scorer: ImageScorer,
  opts: ScoreBatcherOptions = {},
): ScoreBatcher {
  const maxBatch = Math.max(1, opts.maxBatch ?? 16);
  const windowMs = opts.windowMs ?? 10;
  let queue: Waiting[] = [];
  let timer: NodeJS.Timeout | null = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const settle = (results: ScorerResult[]) => {
      for (const [i, w] of batch.entries())
        w.resolve(results[i] ?? scorerError('inference', 'no result'));
    };
    // The interface promises values, but a broken custom scorer must still not crash a batch.
    scorer
      .score(
        batch.map((w) => w.png),
        batch.map((w) => w.prompt),
      )
      .then(settle, (err: unknown) =>
        settle(batch.map(() => scorerError('inference', (err as Error)?.message ?? String(err)))),
      );
  };

  return {
    score(png, prompt, signal) {
      if (signal?.aborted) return Promise.resolve(scorerError('inference', 'aborted'));
      return new Promise<ScorerResult>((resolve) => {
        const onAbort = () => resolve(scorerError('inference', 'aborted'));
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push({
          png,
          prompt,
          resolve: (r) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(r);
          },
        });
        if (queue.length >= maxBatch) flush();
        else if (!timer) timer = setTimeout(flush, windowMs);
      });
    },
    flush,
  };
}
