// Measures renderers against Chromium, the reference picture (issue 11): the feature corpus
// in test/fidelity/corpus (SVGs written here, one feature each) and Fluent Emoji, each
// rendered by librsvg, resvg and Chromium through the render pool, and by CairoSVG (the
// papers' renderer) in one Python process. Mean |Δ| over RGB channels, 0–255, per file.
// Used by the slow fidelity test and by `node --import tsx test/fidelity/measure.ts`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { RenderPool } from '../../src/render/index.ts';
import type { RendererName } from '../../src/render/types.ts';
import { type CorpusSvg, fluentEmoji } from '../support/corpus.ts';
import { renderWithCairoSvg } from './cairosvg.ts';

export const SIZE = 512;
const CORPUS_DIR = new URL('./corpus/', import.meta.url);

export function featureCorpus(): CorpusSvg[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.svg'))
    .sort()
    .map((f) => ({ name: basename(f, '.svg'), svg: readFileSync(new URL(f, CORPUS_DIR), 'utf8') }));
}

export { fluentEmoji };

export function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

const rgb = (png: Buffer | string) => sharp(png).removeAlpha().raw().toBuffer();

export type Pictures = (Buffer | null)[];

/** Raw RGB of every file as `renderer` draws it through the pool (null: not rendered). */
export async function renderAll(
  pool: RenderPool,
  files: CorpusSvg[],
  renderer: RendererName,
): Promise<Pictures> {
  return Promise.all(
    files.map(async (f) => {
      const r = await pool.render(f.svg, { renderer, size: SIZE });
      return r.ok ? rgb(r.png) : null;
    }),
  );
}

/** Raw RGB of every file as CairoSVG draws it (null: CairoSVG refused it). */
export async function renderAllCairo(files: CorpusSvg[]): Promise<Pictures> {
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-ref-'));
  try {
    const items = files.map((f, i) => ({ svg: f.svg, out: join(dir, `${i}.png`) }));
    const errors = renderWithCairoSvg(items, SIZE);
    return await Promise.all(items.map((it, i) => (errors[i] === null ? rgb(it.out) : null)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per-file |Δ| against the reference; NaN where either side is missing. */
export function diffs(pictures: Pictures, reference: Pictures): number[] {
  return pictures.map((p, i) => {
    const r = reference[i];
    return p && r && p.length === r.length ? meanAbsDiff(p, r) : Number.NaN;
  });
}

export interface Summary {
  files: number;
  rendered: number;
  within1: number;
  over2: number;
  over10: number;
  median: number;
  p90: number;
  max: number;
}

export function summarise(d: number[]): Summary {
  const ok = d.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const q = (p: number) => ok[Math.min(ok.length - 1, Math.floor(p * ok.length))] ?? Number.NaN;
  return {
    files: d.length,
    rendered: ok.length,
    within1: ok.filter((x) => x <= 1).length,
    over2: ok.filter((x) => x > 2).length,
    over10: ok.filter((x) => x > 10).length,
    median: q(0.5),
    p90: q(0.9),
    max: ok.at(-1) ?? Number.NaN,
  };
}
