// Renders many SVG files to PNG files through one pool: the library behind
// `rubrica render a.svg b.svg … --out-dir DIR`. Files are read as bytes (so invalid UTF-8
// is caught), rendered with bounded concurrency, and reported in input order. One bad
// file never stops the rest: an unreadable file is a result with code `read_error`.

import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import pLimit from 'p-limit';
import { RubricaError } from '../core/errors.ts';
import { resolveLimits } from './limits.ts';
import { readBounded, readFileBounded } from './read-bounded.ts';
import type { Renderer, RenderOptions, RenderResult } from './types.ts';

/** One input file's render: where its PNG went and the render result (or why it was unreadable). */
export interface FileRenderReport {
  input: string;
  /** PNG written, when rendered and an output was asked for. */
  out: string | null;
  result: RenderResult | { ok: false; error: { code: 'read_error'; message: string }; ms: number };
}

/** The renderer, where PNGs go, render options and how many files are in flight. */
export interface RenderFilesOptions {
  renderer: Renderer;
  /** Directory for `<name>.png` per input; null writes nothing (unless outFile). */
  outDir: string | null;
  /** Exact PNG path for a single input (`rubrica render x.svg --out x.png`). */
  outFile?: string;
  render?: RenderOptions;
  /** Jobs read and in flight at once; default 8. */
  concurrency?: number;
  /** Where "-" is read from; default: standard input. */
  stdin?: NodeJS.ReadableStream;
}

/** PNG names after the inputs; a repeated name gets -2, -3… so nothing is overwritten. */
export function outputNames(inputs: string[]): string[] {
  const used = new Map<string, number>();
  return inputs.map((input) => {
    const stem = input === '-' ? 'stdin' : basename(input, extname(input)) || 'out';
    const n = (used.get(stem) ?? 0) + 1;
    used.set(stem, n);
    return n === 1 ? `${stem}.png` : `${stem}-${n}.png`;
  });
}

/**
 * Calls `onReport` once per input, in input order, as soon as its turn is ready.
 * @example
 * ```ts
 * const done = await renderFiles(['a.svg', 'b.svg'], { renderer: pool, outDir: 'png' }, () => {});
 * ```
 */
export async function renderFiles(
  inputs: string[],
  opts: RenderFilesOptions,
  onReport: (r: FileRenderReport, index: number) => void,
): Promise<FileRenderReport[]> {
  if (opts.outFile && inputs.length !== 1)
    throw new RubricaError('bad_render_options', 'outFile takes exactly one input');
  if (opts.outDir) await mkdir(opts.outDir, { recursive: true });
  const names = outputNames(inputs);
  const limit = pLimit(Math.max(1, opts.concurrency ?? 8));
  const reports: (FileRenderReport | undefined)[] = new Array(inputs.length);
  let next = 0;
  const flush = () => {
    while (next < inputs.length && reports[next]) {
      onReport(reports[next]!, next);
      next++;
    }
  };
  await Promise.all(
    inputs.map((input, i) =>
      limit(async () => {
        reports[i] = await renderOne(input, names[i]!, opts);
        flush();
      }),
    ),
  );
  return reports as FileRenderReport[];
}

async function renderOne(
  input: string,
  name: string,
  opts: RenderFilesOptions,
): Promise<FileRenderReport> {
  let bytes: Buffer;
  // Never read past the byte limit: an endless input is refused after maxBytes + 1.
  const maxBytes = resolveLimits(opts.render?.limits).maxBytes;
  try {
    const read =
      input === '-'
        ? await readBounded(opts.stdin ?? process.stdin, maxBytes)
        : await readFileBounded(input, maxBytes);
    if (!read.ok) {
      const message = `input is over the ${maxBytes}-byte limit (stopped reading at ${read.readBytes} bytes)`;
      return {
        input,
        out: null,
        result: { ok: false, error: { code: 'too_large', message }, ms: 0 },
      };
    }
    bytes = read.bytes;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      input,
      out: null,
      result: { ok: false, error: { code: 'read_error', message }, ms: 0 },
    };
  }
  const result = await opts.renderer.render(bytes, opts.render);
  let out: string | null = null;
  const target = opts.outFile ?? (opts.outDir ? join(opts.outDir, name) : null);
  if (result.ok && target) {
    out = target;
    await writeFile(out, result.png);
  }
  return { input, out, result };
}
