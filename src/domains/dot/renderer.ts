// The dot domain: Graphviz `dot -Tpng` inside the sandbox. SERVER_NAME makes Graphviz
// confine `image=`/`shapefile=` to GV_FILE_PATH, an empty directory — on top of the
// sandbox, where the host's files are absent anyway.
//
// A graph Graphviz refuses is a failure with Graphviz's own words, never a picture or a
// sandbox fault: input with no graph in it (dot exits 0 and writes no file) is `exec_error`;
// a graph too big for a bitmap (dot warns "too large for cairo-renderer bitmaps" and writes
// an empty file, or cannot create its cairo surface) is `too_large`; any other run that
// wrote nothing is `exec_error` with dot's warnings.
//
// Warm by default (warm.ts): `poolSize` sandboxed dot processes draw job after job; a text
// that ends inside a string, comment or open brace (complete.ts) — or `pool: false` — runs in
// a fresh one-shot sandbox per file instead. Both give the same pictures and failure codes.
import pLimit from 'p-limit';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import type { DomainRender, DomainRenderer, DomainRenderOptions } from '../types.ts';
import { isCompleteDot } from './complete.ts';
import { WarmDot, warmFailure } from './warm.ts';

export interface DotRendererOptions {
  timeoutMs?: number;
  /** Default 96 dpi (a graph may set its own). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
  /**
   * Default true: warm dot processes (warm.ts). false: a fresh one-shot sandbox per file
   * (same pictures and codes, 2–7× the CPU per file).
   */
  pool?: boolean;
  /** Warm dot processes (default 2), one job each at a time. */
  poolSize?: number;
  /** Jobs before a warm dot is replaced (default 500). */
  maxJobsPerWorker?: number;
}

/** Written by the pipeline when dot read no graph at all. */
const NO_GRAPH = 'rubrica: no graph in the input';
/** dot's words for a graph it cannot fit in a bitmap. */
const TOO_BIG = /too large for cairo-renderer bitmaps|failure to create cairo surface/;

/** A refusal in dot's own words: the failure code that fits it. */
export function dotRefusal(r: DomainRender): DomainRender {
  if (r.ok) return r;
  const { code } = r.error;
  const tail = r.notes?.stderrTail ?? '';
  if ((code === 'exec_error' || code === 'no_output') && TOO_BIG.test(tail)) {
    const message = `dot: the graph is too large to draw as a bitmap:\n${tail}`;
    return { ...r, error: { code: 'too_large', message } };
  }
  if (code === 'exec_error' && tail.includes(NO_GRAPH)) {
    return { ...r, error: { code: 'exec_error', message: 'dot: no graph in the input' } };
  }
  if (code === 'no_output') {
    const message = `dot wrote no picture${tail ? `:\n${tail}` : ''}`;
    return { ...r, error: { code: 'exec_error', message } };
  }
  return r;
}

const MAX_CODE_BYTES = 256 * 1024;
/**
 * Attributes that name files. Graphviz keeps per-process state about them (its image cache,
 * the "files are only permitted from GV_FILE_PATH" warning printed once per process), so a
 * graph using one runs one-shot: its refusal and warnings are the same on every run.
 */
const NAMES_FILES = /\b(image|shapefile|imagepath)\s*=/i;
const MAX_OUTPUT_BYTES = 32 * 1024 ** 2;

/** A warm job's outcome as the one-shot pipeline would give it (before dotRefusal). */
async function warmResult(
  w: WarmDot,
  code: string,
  timeoutMs: number,
  started: number,
): Promise<DomainRender> {
  const o = await w.run(code, timeoutMs, MAX_OUTPUT_BYTES);
  const ms = performance.now() - started;
  if (!o.ok) return warmFailure(o, ms);
  const tail = o.stderr.trim().slice(-1500);
  const notes = tail ? { stderrTail: tail } : {};
  if (o.pngs.length === 0) {
    // Nothing drawn: no graph in the input, or one too large for a bitmap (dot's warning).
    const message = tail ? `dot failed:\n${tail}` : NO_GRAPH;
    return {
      ok: false,
      error: makeError('exec_error', message),
      ms,
      notes: { stderrTail: tail || NO_GRAPH },
    };
  }
  return pngResult(o.pngs[0]!, started, notes);
}

export function createDotRenderer(opts: DotRendererOptions = {}): DomainRenderer {
  const dpi = opts.dpi ?? 96;
  const env = { SERVER_NAME: 'rubrica', GV_FILE_PATH: '/tmp/no-images/' };
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const limits = { cpuSeconds: 20, memoryBytes: 1024 ** 3, ...opts.limits };
  const inner = createOneShotRenderer({
    name: 'dot',
    spec: {
      argv: [
        '/bin/sh',
        '-c',
        [
          `mkdir -p /tmp/no-images && cat > g.dot && dot -Gdpi=${dpi} -Tpng -o out.png g.dot 2> err.txt; rc=$?`,
          'tail -c 1500 err.txt >&2',
          `[ $rc = 0 ] || exit ${EXIT_TOOL_FAILED}`,
          // dot exits 0 without a file when the input holds no graph, and with an empty one
          // when it could not draw the graph it read.
          `[ -e out.png ] || { echo '${NO_GRAPH}' >&2; exit ${EXIT_TOOL_FAILED}; }`,
          `[ -s out.png ] || exit ${EXIT_NO_OUTPUT}`,
          'cat out.png',
        ].join('; '),
      ],
      env,
      limits,
    },
    timeoutMs,
    maxCodeBytes: MAX_CODE_BYTES,
  });
  // The warm processes: the same sandbox, dot reading graphs from stdin, PNGs to stdout.
  // /tmp is the sandbox's own empty tmpfs: GV_FILE_PATH names a directory holding nothing.
  const warmSpec = {
    asPid1: true,
    argv: ['dot', `-Gdpi=${dpi}`, '-Tpng'],
    env: { ...env, GV_FILE_PATH: '/tmp/' },
    // The process lives for many jobs: each job's limit is its wall clock (warm.ts).
    limits: { ...limits, cpuSeconds: 3600 },
  };
  const size = opts.pool === false ? 0 : Math.max(1, opts.poolSize ?? 2);
  const slots: Array<WarmDot | null> = Array.from({ length: size }, () => null);
  const free = slots.map((_, i) => i);
  const limit = pLimit(Math.max(1, size));
  const maxJobs = opts.maxJobsPerWorker ?? 500;
  let closed = false;

  async function warm(slot: number): Promise<WarmDot | null> {
    let w = slots[slot] ?? null;
    if (w && (!w.alive || w.jobs >= maxJobs)) {
      void w.close();
      w = null;
    }
    if (!w) {
      w = new WarmDot(warmSpec, 30_000);
      slots[slot] = w;
    }
    try {
      await w.ready;
      return w;
    } catch {
      slots[slot] = null;
      return null;
    }
  }

  return {
    async render(code: string, ro: DomainRenderOptions = {}): Promise<DomainRender> {
      if (
        size === 0 ||
        closed ||
        Buffer.byteLength(code) > MAX_CODE_BYTES ||
        !isCompleteDot(code) ||
        NAMES_FILES.test(code)
      ) {
        return dotRefusal(await inner.render(code, ro));
      }
      const started = performance.now();
      const r = await limit(async () => {
        const slot = free.pop()!;
        try {
          const w = await warm(slot);
          // A warm dot that cannot start: this file runs one-shot (same sandbox, same result).
          // `return await`, not `return`: the `finally` below frees the slot, and must not
          // run before the job is over (returning the bare promise freed it at once, so two
          // jobs shared a warm dot and got each other's pictures).
          if (!w) return await inner.render(code, ro);
          return await warmResult(w, code, ro.timeoutMs ?? timeoutMs, started);
        } finally {
          free.push(slot);
        }
      });
      return dotRefusal(r);
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((w) => w?.close()));
      await inner.close();
    },
  };
}
