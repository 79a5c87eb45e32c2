// One whole render as it runs inside a worker: sanitise and fit, rasterise (librsvg or
// resvg), measure, encode. For Chromium the worker only sanitises and fits (sanitizeJob);
// the browser room draws. Every failure becomes a result with a stable code; nothing is
// thrown.
import { makeError } from '../core/errors.ts';
import { DEFAULT_BACKGROUND, DEFAULT_RENDERER, DEFAULT_SIZE } from './defaults.ts';
import { resolveLimits } from './limits.ts';
import { backgroundRgb, type Raster, rasterize } from './rasterize.ts';
import { sanitizeSvg } from './sanitize.ts';
import type { CodeStats, RenderOptions, RenderResult, SanitizedJob } from './types.ts';

export { DEFAULT_BACKGROUND, DEFAULT_SIZE };

type Failure = Extract<RenderResult, { ok: false }>;
type Prepared =
  | { ok: true; svg: string; code: CodeStats; bg: readonly [number, number, number] }
  | Omit<Failure, 'ms'>;

/** Validate the options, sanitise and fit: everything before a renderer draws. */
async function prepare(input: string | Uint8Array, opts: RenderOptions): Promise<Prepared> {
  const limits = resolveLimits(opts.limits);
  const size = opts.size ?? DEFAULT_SIZE;
  if (!Number.isInteger(size) || size < 1) {
    return { ok: false, error: makeError('render_error', `bad output size ${size}`) };
  }
  if (size * size > limits.maxPixels) {
    const error = makeError(
      'too_large',
      `${size}×${size} output is over ${limits.maxPixels} pixels`,
    );
    return { ok: false, error };
  }
  let bg: readonly [number, number, number];
  try {
    bg = await backgroundRgb(opts.background ?? DEFAULT_BACKGROUND);
  } catch {
    return {
      ok: false,
      error: makeError('render_error', `unknown background colour ${opts.background}`),
    };
  }
  const clean = sanitizeSvg(input, { limits, size, repair: opts.repair === true });
  if (!clean.ok) return clean;
  return { ok: true, svg: clean.svg, code: clean.code, bg };
}

// hrtime, not performance.now(): the global `performance` loads node:perf_hooks on first
// use, a few ms of a cold worker's first render.
const stopwatch = () => {
  const t0 = process.hrtime.bigint();
  return () => Math.round(Number(process.hrtime.bigint() - t0) / 1e4) / 100;
};

export async function sanitizeJob(
  input: string | Uint8Array,
  opts: RenderOptions = {},
): Promise<SanitizedJob> {
  const ms = stopwatch();
  const p = await prepare(input, opts);
  if (!p.ok) return { ...p, ms: ms() };
  return { ok: true, svg: p.svg, code: p.code, ms: ms() };
}

/**
 * One render inside a worker: sanitise, fit, rasterise with librsvg or resvg, measure the
 * pixels. Every failure is a value; a Chromium job is refused here (the pool sends those to
 * the browser room).
 */
export async function renderJob(
  input: string | Uint8Array,
  opts: RenderOptions = {},
): Promise<RenderResult> {
  const ms = stopwatch();
  const renderer = opts.renderer ?? DEFAULT_RENDERER;
  // 'auto' is resolved by the pool; a worker asked directly draws with librsvg.
  if (renderer === 'chromium') {
    const error = makeError('render_error', 'chromium renders through the pool, not a worker');
    return { ok: false, error, ms: ms() };
  }
  const p = await prepare(input, opts);
  if (!p.ok) return { ...p, ms: ms() };
  try {
    const limits = resolveLimits(opts.limits);
    const r: Raster =
      renderer === 'resvg'
        ? // loaded when asked for: a librsvg worker never pays resvg's native load (~20 ms)
          await (await import('./rasterize-resvg.ts')).rasterizeResvg(
            p.svg,
            opts.size ?? DEFAULT_SIZE,
            p.bg,
          )
        : await rasterize(p.svg, p.bg, limits.maxPixels);
    return { ok: true, ...r, ms: ms(), code: p.code };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const code = /pixel limit/i.test(msg) ? 'too_large' : 'render_error';
    return { ok: false, error: makeError(code, msg.split('\n')[0]!), ms: ms(), code: p.code };
  }
}
