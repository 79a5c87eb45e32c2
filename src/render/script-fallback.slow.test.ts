// Every script a prompt can ask for is drawn, and drawn alike by every renderer: text in
// scripts DejaVu lacks goes to the pinned fallback chain (core/font-chain.ts) in librsvg,
// resvg and Chromium. Two facts per script and renderer: the text is not tofu (its picture
// differs from the same number of private-use characters, which no font has and every
// renderer draws as boxes), and the three renderers draw the same picture (the same font
// did it; before the chain librsvg drew hex boxes, resvg nothing or boxes, Chromium boxes).
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderPool } from './pool.ts';
import type { RendererName } from './types.ts';

const SCRIPTS: Record<string, string> = {
  kanji: '漢字の森',
  hangul: '한국어',
  arabic: 'مرحبا',
  hebrew: 'שלום',
  devanagari: 'नमस्ते',
  thai: 'สวัสดี',
  emoji: '🍎🚀🌵',
};
const RENDERERS: RendererName[] = ['librsvg', 'resvg', 'chromium'];
const svg = (text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100"><text x="10" y="70" font-size="48" font-family="sans-serif">${text}</text></svg>`;
const tofu = (text: string) => [...text].map((_, i) => String.fromCodePoint(0xe000 + i)).join('');

const pool = createRenderPool({ workers: 1 });
afterAll(() => pool.close());

async function grey(text: string, renderer: RendererName): Promise<Buffer> {
  const r = await pool.render(svg(text), { renderer, size: 300 });
  if (!r.ok) throw new Error(`${renderer}: ${r.error.message}`);
  return sharp(r.png).greyscale().raw().toBuffer();
}
const ink = (a: Buffer) => a.filter((v) => v < 128).length;
/** Pixels where two pictures differ by more than a quarter of the range. */
const differ = (a: Buffer, b: Buffer) => a.filter((v, i) => Math.abs(v - b[i]!) > 64).length;

describe('script fallback', () => {
  it.each(Object.entries(SCRIPTS))(
    '%s is drawn with ink, not boxes, the same in librsvg, resvg and Chromium',
    { timeout: 60_000 },
    async (_, text) => {
      const pics = await Promise.all(RENDERERS.map((r) => grey(text, r)));
      const boxes = await Promise.all(RENDERERS.map((r) => grey(tofu(text), r)));
      RENDERERS.forEach((r, i) => {
        const n = ink(pics[i]!);
        expect(n, `${r} ink`).toBeGreaterThan(200);
        expect(differ(pics[i]!, boxes[i]!), `${r} vs its tofu`).toBeGreaterThan(n * 0.5);
      });
      // Same font, same layout: the renderers differ only in antialiasing at glyph edges.
      const base = ink(pics[0]!);
      for (const i of [1, 2]) {
        expect(differ(pics[0]!, pics[i]!), `librsvg vs ${RENDERERS[i]}`).toBeLessThan(base * 0.2);
      }
    },
  );
});
