// One whole render as it runs inside a worker: sanitise and fit, rasterise, measure,
// encode. Every failure becomes a RenderResult with a stable code; nothing is thrown.
import { makeError } from '../core/errors.ts';
import { DEFAULT_BACKGROUND, DEFAULT_SIZE } from './defaults.ts';
import { resolveLimits } from './limits.ts';
import { backgroundRgb, rasterize } from './rasterize.ts';
import { sanitizeSvg } from './sanitize.ts';
import type { RenderOptions, RenderResult } from './types.ts';

export { DEFAULT_BACKGROUND, DEFAULT_SIZE };

export async function renderJob(
  input: string | Uint8Array,
  opts: RenderOptions = {},
): Promise<RenderResult> {
  const t0 = performance.now();
  const ms = () => Math.round((performance.now() - t0) * 100) / 100;
  const limits = resolveLimits(opts.limits);
  const size = opts.size ?? DEFAULT_SIZE;
  if (!Number.isInteger(size) || size < 1) {
    return { ok: false, error: makeError('render_error', `bad output size ${size}`), ms: ms() };
  }
  if (size * size > limits.maxPixels) {
    const error = makeError(
      'too_large',
      `${size}×${size} output is over ${limits.maxPixels} pixels`,
    );
    return { ok: false, error, ms: ms() };
  }
  let bg: readonly [number, number, number];
  try {
    bg = await backgroundRgb(opts.background ?? DEFAULT_BACKGROUND);
  } catch {
    const error = makeError('render_error', `unknown background colour ${opts.background}`);
    return { ok: false, error, ms: ms() };
  }
  const clean = sanitizeSvg(input, { limits, size, repair: opts.repair === true });
  if (!clean.ok) return { ...clean, ms: ms() };
  try {
    const r = await rasterize(clean.svg, bg, limits.maxPixels);
    return { ok: true, ...r, ms: ms(), code: clean.code };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const code = /pixel limit/i.test(msg) ? 'too_large' : 'render_error';
    return { ok: false, error: makeError(code, msg.split('\n')[0]!), ms: ms(), code: clean.code };
  }
}
