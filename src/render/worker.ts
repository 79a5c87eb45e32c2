// Entry point of a render worker process (forked by pool.ts). It renders one job at a
// time, in arrival order, and answers each with the result and its resident memory so
// the parent can recycle a worker that grew. It dies with its parent.

// First: the pinned fonts must be in the environment before libvips loads.
import './worker-fonts.ts';
import { makeError } from '../core/errors.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import { renderJob, sanitizeJob } from './render-job.ts';
import sharp from './sharp.ts';
import type { RenderResult, SanitizedJob } from './types.ts';

// One libvips thread per worker: parallelism comes from the number of workers, and a
// worker must not use more than the one core the pool sized it for.
sharp.concurrency(1);
sharp.cache(false);

let chain: Promise<void> = Promise.resolve();

process.on('message', (msg: WorkerRequest) => {
  if (msg?.type !== 'render' && msg?.type !== 'sanitize') return;
  chain = chain.then(async () => {
    let result: RenderResult | SanitizedJob;
    try {
      result =
        msg.type === 'sanitize'
          ? await sanitizeJob(msg.svg, msg.opts)
          : await renderJob(msg.svg, msg.opts);
    } catch (err) {
      // A bug, not bad input (renderJob turns bad input into values): still answer, so
      // the caller gets a result and the worker stays usable.
      const message = `internal error: ${err instanceof Error ? err.message : String(err)}`;
      result = { ok: false, error: makeError('render_error', message), ms: 0 };
    }
    const reply: WorkerReply = { id: msg.id, result, rss: process.memoryUsage.rss() };
    process.send?.(reply);
  });
});

process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal signals the whole process group. The parent decides what an
// interrupt means (a batch command stops cleanly); a worker killed by it would report its
// in-flight render as render_crash, blaming the drawing. It still dies with its parent.
process.on('SIGINT', () => {});
process.send?.({ ready: true });
