// Fidelity: rubrica must draw the picture CairoSVG (the papers' renderer) draws, on real
// icons nobody here wrote (Fluent Emoji, MIT) and on variants of them that exercise the
// fitting rules (non-square viewBox, width/height without viewBox, physical units,
// preserveAspectRatio, a missing xmlns). CairoSVG renders the batch in one process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, type RenderPool } from '../../src/render/index.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { renderWithCairoSvg } from './cairosvg.ts';

const SIZE = 512;
const icons = fluentEmoji(40);

function variants(): { name: string; svg: string }[] {
  const body = (svg: string) => svg.slice(svg.indexOf('>') + 1, svg.lastIndexOf('</svg>'));
  const pick = (i: number) => icons[i * 7]!;
  const ns = 'xmlns="http://www.w3.org/2000/svg"';
  return [
    { name: 'wide-viewbox', svg: `<svg ${ns} viewBox="-16 0 64 32">${body(pick(0).svg)}</svg>` },
    { name: 'tall-viewbox', svg: `<svg ${ns} viewBox="0 4 32 24">${body(pick(1).svg)}</svg>` },
    {
      name: 'width-height-only',
      svg: `<svg ${ns} width="32" height="24">${body(pick(2).svg)}</svg>`,
    },
    { name: 'mm-units', svg: `<svg ${ns} width="8mm" height="12mm">${body(pick(3).svg)}</svg>` },
    {
      name: 'xminymin',
      svg: `<svg ${ns} viewBox="0 0 48 32" preserveAspectRatio="xMinYMin meet">${body(pick(4).svg)}</svg>`,
    },
    { name: 'no-xmlns', svg: `<svg viewBox="0 0 32 32">${body(pick(5).svg)}</svg>` },
  ];
}

// Hand-written, not real icons: they pin down CairoSVG's conventions for text (default
// sans-serif 12pt) and physical units (96 dpi), which the icon corpus never exercises.
const NS = 'xmlns="http://www.w3.org/2000/svg"';
const conventions = [
  {
    name: 'default-text',
    svg: `<svg ${NS} viewBox="0 0 100 100"><text x="5" y="30">Label text</text></svg>`,
  },
  {
    name: 'styled-text',
    svg: `<svg ${NS} viewBox="0 0 100 100"><text x="50" y="60" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="24" fill="#c00">Cat</text></svg>`,
  },
  {
    name: 'physical-units',
    svg: `<svg ${NS} viewBox="0 0 100 100"><rect x="10mm" y="5mm" width="0.5in" height="24pt" fill="#369"/><circle cx="70" cy="70" r="20" stroke="#c33" stroke-width="6pt" fill="none"/></svg>`,
  },
];

async function rgb(png: Buffer | string): Promise<Buffer> {
  return sharp(png).removeAlpha().raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('fidelity against CairoSVG', () => {
  let pool: RenderPool;
  let dir: string;
  beforeAll(() => {
    pool = createRenderPool({ workers: 2 });
    dir = mkdtempSync(join(tmpdir(), 'rubrica-fidelity-'));
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Measured here: mean 0.018/255, worst 0.039/255 (librsvg and cairo anti-alias alike).
  // The bounds leave room for other library builds yet catch any misplaced or missing shape.
  it('matches CairoSVG within 0.5/255 per file and 0.1/255 on average', async () => {
    await compare([...icons, ...variants()], 0.5, 0.1);
  });

  // Text goes through different font stacks (pango vs cairo's toy text API): glyph edges
  // differ slightly (measured: worst 0.82/255, mean 0.45/255 over these three).
  it('follows its text and unit conventions within 2/255 per file', async () => {
    await compare(conventions, 2, 1);
  });

  async function compare(
    sample: { name: string; svg: string }[],
    perFile: number,
    meanBound: number,
  ) {
    const tag = sample[0]!.name;
    const items = sample.map((s, i) => ({ svg: s.svg, out: join(dir, `${tag}-${i}.png`) }));
    const cairoErrors = renderWithCairoSvg(items, SIZE);
    expect(cairoErrors.filter((e) => e !== null)).toEqual([]);

    const ours = await Promise.all(sample.map((s) => pool.render(s.svg, { size: SIZE })));
    const diffs: { name: string; diff: number }[] = [];
    for (let i = 0; i < sample.length; i++) {
      const r = ours[i]!;
      expect(r.ok, `${sample[i]!.name}: ${r.ok ? '' : r.error.message}`).toBe(true);
      if (!r.ok) continue;
      expect([r.width, r.height]).toEqual([SIZE, SIZE]);
      const [a, b] = await Promise.all([rgb(r.png), rgb(items[i]!.out)]);
      expect(a.length).toBe(b.length);
      diffs.push({ name: sample[i]!.name, diff: meanAbsDiff(a, b) });
    }
    const worst = diffs.reduce((w, d) => (d.diff > w.diff ? d : w));
    const mean = diffs.reduce((s, d) => s + d.diff, 0) / diffs.length;
    console.log(
      `fidelity: ${diffs.length} files, mean |Δ| ${mean.toFixed(4)}/255, worst ${worst.name} ${worst.diff.toFixed(4)}/255`,
    );
    for (const d of diffs) expect(d.diff, d.name).toBeLessThanOrEqual(perFile);
    expect(mean).toBeLessThanOrEqual(meanBound);
  }
});
