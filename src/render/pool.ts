// A pool of render worker processes. Each render runs in a child process with a
// wall-clock limit: a render over its limit gets its worker SIGKILLed and replaced; a
// worker that dies (signal, abort, out of memory) is replaced and the render it held is
// retried once in a fresh worker — a worker killed from outside (the OOM killer, an
// operator) must not be blamed on the SVG — and reports render_crash only if that dies too; a worker whose memory grew past a bound is retired after its
// current jobs. Bad input never throws; only misuse (closed pool, full queue) does.
//
// Why not workerpool: its timeout first asks the worker to clean up and only kills it
// after a grace period, and since librsvg runs on a libuv thread the worker stays
// responsive while the runaway render keeps its core busy; it also gives no per-worker
// hook for memory-based recycling or for pipelining a second job behind the current one.
import { availableParallelism } from 'node:os';
import { type BrowserRoom, createBrowserRoom } from '../browser/room.ts';
import { makeError, RubricaError } from '../core/errors.ts';
import { chooseRenderer } from './auto.ts';
import { DEFAULT_BACKGROUND, DEFAULT_RENDERER, DEFAULT_SIZE } from './defaults.ts';
import { resolveLimits } from './limits.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import type { Renderer, RenderOptions, RenderResult, SanitizedJob } from './types.ts';
import { DEFAULT_WORKER_HEAP_MB, workerEntry } from './worker-entry.ts';
import { type Slot, setSlotRef, spawnSlot, type Task } from './worker-slot.ts';

/** Worker count, time limit, queue bound, memory bounds and render defaults of a pool. */
export interface RenderPoolOptions {
  /** Worker processes; default: available cores. */
  workers?: number;
  /** Default wall-clock limit per render, ms; default 10 000 (a render's own timeoutMs wins). */
  timeoutMs?: number;
  /** Renders waiting for a worker before render() throws RenderQueueFullError; default ∞. */
  maxQueue?: number;
  /** Jobs sent ahead to one worker so it never waits on IPC; default 2. */
  pipeline?: number;
  /** Retire a worker whose resident memory passed this, MB; default 1024. */
  maxRssMb?: number;
  /** V8 heap bound for each worker, MB; default 512. */
  maxOldSpaceMb?: number;
  /** Options applied to every render unless the call overrides them. */
  defaults?: RenderOptions;
  /**
   * The browser room for `renderer: 'chromium'`; default: one created on first use with a
   * page per worker, closed with the pool.
   */
  browser?: BrowserRoom;
}

/** A pool's counters: its workers, the queue, and how many were killed, crashed or retired. */
export interface PoolStats {
  workers: { pid: number | undefined; inFlight: number; rendered: number; rssMb: number }[];
  queued: number;
  spawned: number;
  killedOnTimeout: number;
  crashed: number;
  /** Renders whose worker died and that were retried once in a fresh worker. */
  retriedAfterCrash: number;
  recycled: number;
}

/** A Renderer that draws in worker processes it owns; close it to end them. */
export interface RenderPool extends Renderer {
  stats(): PoolStats;
  /**
   * Rejects what is queued or in flight and kills every worker. By default it resolves once
   * the workers have exited; `waitForExit: false` resolves once they are killed, for a
   * one-shot command about to exit (the kernel reaping a worker is ~10–20 ms of its
   * start-to-finish time, and the worker cannot outlive the kill).
   */
  close(opts?: { waitForExit?: boolean }): Promise<void>;
}

/** The pool's queue is full: retry later (the server answers 503 for it). */
export class RenderQueueFullError extends RubricaError<'render_queue_full'> {
  constructor(message: string) {
    super('render_queue_full', message, { retryable: true });
  }
}
/** Thrown (rejected) by `render()` on a pool that has been closed. */
export class RenderPoolClosedError extends RubricaError<'render_pool_closed'> {
  constructor(message: string) {
    super('render_pool_closed', message);
  }
}

// The factory is long because its closures share the pool's state (slots, queue, counters);
// each closure is small, and the worker process itself lives in worker-slot.ts.
/**
 * A pool of worker processes that sanitise and render SVGs. Each render runs in a killable
 * worker with a time limit; a hostile SVG costs one worker, never the caller. A bad SVG comes
 * back as an error value (`parse_error`, `too_large`, `timeout`, `render_crash`, …); `render()`
 * rejects only with RenderQueueFullError (past `maxQueue`) or RenderPoolClosedError.
 * @example
 * ```ts
 * const pool = createRenderPool({ workers: 2, timeoutMs: 10_000 });
 * const r = await pool.render(svg, { size: 512, background: 'white' });
 * if (r.ok) writeFileSync('out.png', r.png); else console.log(r.error.code);
 * await pool.close();
 * ```
 */
export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const max = Math.max(1, Math.floor(options.workers ?? availableParallelism()));
  const depth = Math.max(1, Math.floor(options.pipeline ?? 2));
  const defaultTimeout = options.timeoutMs ?? options.defaults?.timeoutMs ?? 10_000;
  const maxQueue = options.maxQueue ?? Number.POSITIVE_INFINITY;
  const maxRss = (options.maxRssMb ?? 1024) * 1024 * 1024;
  const entry = workerEntry(options.maxOldSpaceMb ?? DEFAULT_WORKER_HEAP_MB);
  const slots: Slot[] = [];
  const queue: Task[] = [];
  const counters = {
    spawned: 0,
    killedOnTimeout: 0,
    crashed: 0,
    retriedAfterCrash: 0,
    recycled: 0,
  };
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const slot = spawnSlot(entry, {
      onReply: (msg) => onReply(slot, msg),
      onExit: (code, signal) => onExit(slot, code, signal),
    });
    counters.spawned++;
    slots.push(slot);
    return slot;
  };

  const remove = (slot: Slot) => {
    slot.dead = true;
    if (slot.bootTimer) clearTimeout(slot.bootTimer);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  };

  const armTimer = (slot: Slot) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const head = slot.inFlight[0];
    if (!head || !slot.ready) return;
    head.started = performance.now();
    slot.timer = setTimeout(() => onTimeout(slot), head.timeoutMs);
  };

  const send = (slot: Slot, task: Task) => {
    slot.inFlight.push(task);
    if (slot.inFlight.length === 1) armTimer(slot);
    setSlotRef(slot);
    const req: WorkerRequest = { type: task.kind, id: task.id, svg: task.svg, opts: task.opts };
    slot.child.send(req);
  };

  const pickSlot = (): Slot | null => {
    const live = slots.filter((s) => !s.retiring && !s.dead);
    const idle = live.find((s) => s.inFlight.length === 0);
    if (idle) return idle;
    if (slots.length < max) return spawn();
    let best: Slot | null = null;
    for (const s of live) {
      if (s.inFlight.length < depth && (!best || s.inFlight.length < best.inFlight.length))
        best = s;
    }
    return best;
  };

  const dispatch = () => {
    while (queue.length > 0 && !closed) {
      const slot = pickSlot();
      if (!slot) return;
      send(slot, queue.shift()!);
    }
  };

  /** The head task failed with the worker; jobs queued behind it were not at fault. */
  const failSlot = (slot: Slot, headResult: (t: Task) => RenderResult) => {
    const [head, ...rest] = slot.inFlight;
    slot.inFlight = [];
    remove(slot);
    if (head) head.resolve(headResult(head));
    queue.unshift(...rest);
    dispatch();
  };

  const onTimeout = (slot: Slot) => {
    if (slot.dead) return;
    counters.killedOnTimeout++;
    slot.child.kill('SIGKILL');
    failSlot(slot, (t) => ({
      ok: false,
      error: makeError('timeout', `render took longer than ${t.timeoutMs} ms; worker killed`),
      ms: t.started ? Math.round(performance.now() - t.started) : 0,
    }));
  };

  const onExit = (slot: Slot, code: number | null, signal: NodeJS.Signals | null) => {
    if (slot.dead) return;
    if (slot.inFlight.length === 0) {
      remove(slot);
      dispatch();
      return;
    }
    counters.crashed++;
    const head = slot.inFlight[0]!;
    if (!head.retried && !closed) {
      // Retry once in a fresh worker, ahead of everything queued; only a second death is
      // the SVG's doing.
      head.retried = true;
      head.started = 0;
      counters.retriedAfterCrash++;
      const rest = slot.inFlight.slice(1);
      slot.inFlight = [];
      remove(slot);
      send(spawn(), head);
      queue.unshift(...rest);
      dispatch();
      return;
    }
    const tail = slot.stderrTail.trim().split('\n').slice(-3).join(' | ');
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    failSlot(slot, (t) => ({
      ok: false,
      error: makeError('render_crash', `renderer process died (${how})${tail ? `: ${tail}` : ''}`),
      ms: t.started ? Math.round(performance.now() - t.started) : 0,
    }));
  };

  const onReply = (slot: Slot, msg: WorkerReply | { ready: true }) => {
    if (slot.dead) return;
    if (!('id' in msg)) {
      slot.ready = true;
      if (slot.bootTimer) clearTimeout(slot.bootTimer);
      armTimer(slot);
      return;
    }
    const task = slot.inFlight[0];
    if (!task || task.id !== msg.id) return;
    slot.inFlight.shift();
    slot.rendered++;
    slot.rss = msg.rss;
    const r = msg.result;
    // Structured clone hands Buffers over as plain Uint8Arrays: re-wrap without copying.
    if (r.ok && 'png' in r && !Buffer.isBuffer(r.png)) {
      const u8 = r.png as Uint8Array;
      r.png = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
    }
    task.resolve(r);
    armTimer(slot);
    if (slot.rss > maxRss) slot.retiring = true;
    if (slot.retiring && slot.inFlight.length === 0) {
      counters.recycled++;
      remove(slot);
      slot.child.disconnect(); // the worker exits on disconnect
    } else {
      setSlotRef(slot);
    }
    dispatch();
  };

  const enqueue = (
    kind: Task['kind'],
    svg: string | Uint8Array,
    opts: RenderOptions,
    timeoutMs: number,
  ) =>
    new Promise<RenderResult | SanitizedJob>((resolve, reject) => {
      queue.push({ id: nextId++, kind, svg, opts, timeoutMs, resolve, reject, started: 0 });
      dispatch();
    });

  let room: BrowserRoom | null = options.browser ?? null;
  const ownsRoom = !options.browser;
  /** Sanitise and fit in a worker (hostile input stays there), draw in the browser room. */
  const renderInBrowser = async (
    svg: string | Uint8Array,
    opts: RenderOptions,
    timeoutMs: number,
  ): Promise<RenderResult> => {
    const prepared = (await enqueue('sanitize', svg, opts, timeoutMs)) as SanitizedJob;
    if (!prepared.ok) return prepared;
    room ??= createBrowserRoom({ pages: max, timeoutMs: defaultTimeout });
    const size = opts.size ?? DEFAULT_SIZE;
    const background = opts.background ?? DEFAULT_BACKGROUND;
    const shot = await room.renderPage({
      svg: prepared.svg,
      viewport: { width: size, height: size },
      background,
      timeoutMs,
    });
    const ms = Math.round((prepared.ms + shot.ms) * 100) / 100;
    if (!shot.ok) return { ok: false, error: shot.error, ms, code: prepared.code };
    const { measurePng } = await import('./measure-png.ts');
    const m = await measurePng(shot.png, background);
    return { ok: true, png: shot.png, ...m, ms, code: prepared.code };
  };

  return {
    render(svg, opts = {}) {
      if (closed) return Promise.reject(new RenderPoolClosedError('render pool is closed'));
      if (queue.length >= maxQueue) {
        return Promise.reject(new RenderQueueFullError(`render queue is full (${maxQueue})`));
      }
      const merged: RenderOptions = { ...options.defaults, ...opts };
      merged.renderer ??= DEFAULT_RENDERER;
      if (merged.renderer === 'auto') merged.renderer = chooseRenderer(svg);
      const timeoutMs = merged.timeoutMs ?? defaultTimeout;
      // An oversized file is refused here: no need to copy 20 MB to a worker to say no.
      const maxBytes = resolveLimits(merged.limits).maxBytes;
      const bytes = typeof svg === 'string' ? svg.length : svg.byteLength;
      if (bytes > maxBytes && (typeof svg !== 'string' || Buffer.byteLength(svg) > maxBytes)) {
        const error = makeError('too_large', `SVG is over the ${maxBytes}-byte limit`);
        return Promise.resolve({ ok: false, error, ms: 0 });
      }
      if (merged.renderer === 'chromium') return renderInBrowser(svg, merged, timeoutMs);
      return enqueue('render', svg, merged, timeoutMs) as Promise<RenderResult>;
    },
    async close(opts: { waitForExit?: boolean } = {}) {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new RenderPoolClosedError('render pool closed'));
      const exits = slots.map(
        (s) =>
          new Promise<void>((res) =>
            s.child.exitCode !== null ? res() : s.child.once('exit', () => res()),
          ),
      );
      for (const s of [...slots]) {
        for (const t of s.inFlight) t.reject(new RenderPoolClosedError('render pool closed'));
        s.inFlight = [];
        remove(s);
        s.child.ref(); // an unref'd child's exit event would not keep close() awaited
        s.child.kill('SIGKILL');
      }
      if (opts.waitForExit !== false) await Promise.all(exits);
      if (ownsRoom) await room?.close();
    },
    stats() {
      return {
        workers: slots.map((s) => ({
          pid: s.child.pid,
          inFlight: s.inFlight.length,
          rendered: s.rendered,
          rssMb: Math.round(s.rss / 1048576),
        })),
        queued: queue.length,
        ...counters,
      };
    },
  };
}
