// Widths of text in the pinned fonts against what librsvg draws (the ground truth): each
// string is rendered alone, one user unit to a pixel, and its ink's extent measured in the
// PNG. The ink is the advance less the first glyph's left and the last glyph's right side
// bearing (measured 0.09–0.18 em on these strings; kerning, left out, narrows a few pairs),
// so the laid width is never narrower than the ink and at most a quarter em wider; the old
// estimate (0.52 em a character) was off by two em and more on bold capitals.
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderPool } from './index.ts';
import sharp from './sharp.ts';
import { declaredTextProps } from './text-style.ts';
import { faceFile, fontSize, resolveFont, runWidth, spacing, type TextFont } from './text-width.ts';

const pool = createRenderPool({ workers: 1 });
afterAll(() => pool.close());
const SIDE = 1024;

/** The ink's horizontal extent of one <text> drawn at x = 20 (black on white). */
async function inkWidth(attrs: string, text: string): Promise<number> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIDE} ${SIDE}"><text x="20" y="300" ${attrs}>${text}</text></svg>`;
  const r = await pool.render(svg, { size: SIDE, renderer: 'librsvg' });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const { data, info } = await sharp(r.png)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let lo = Infinity;
  let hi = -Infinity;
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i]! < 128) {
        lo = Math.min(lo, x);
        hi = Math.max(hi, x + 1);
      }
    }
  return hi - lo;
}

const font = (attrs: Record<string, string>): TextFont => {
  const props = declaredTextProps([], 'text', attrs);
  return resolveFont(props, { file: '', size: 16, letterSpacing: 0, wordSpacing: 0 }, props);
};

const CASES: [Record<string, string>, string][] = [
  [
    { 'font-size': '50', 'font-weight': 'bold', 'font-family': "Impact, 'DejaVu Sans'" },
    'SUMMER FESTIVAL',
  ],
  [
    { 'font-size': '64', 'font-weight': 'bold', 'font-family': 'DejaVu Serif, serif' },
    'Café Lumière',
  ],
  [{ 'font-size': '44', 'font-weight': '700' }, 'Spring in Kyoto'],
  [{ 'font-size': '40' }, 'illicit little lilies'],
  [{ 'font-size': '30', 'font-family': 'monospace' }, 'WWW iii 123'],
  [
    { 'font-size': '36', 'font-style': 'italic', 'font-family': 'Georgia, serif' },
    'The Lighthouse',
  ],
  [{ 'font-size': '32', 'letter-spacing': '6' }, 'NIGHT CITY'],
  [{ 'font-size': '40' }, '東京の夜景'],
];

describe('text width in the pinned fonts', () => {
  it('covers the ink librsvg draws, wider only by side bearings (under a quarter em)', async () => {
    for (const [attrs, text] of CASES) {
      const f = font(attrs);
      const ink = await inkWidth(
        Object.entries(attrs)
          .map(([k, v]) => `${k}="${v}"`)
          .join(' '),
        text,
      );
      // letter-spacing follows the last glyph too: the ink stops before it.
      const laid = runWidth(text, f) - f.letterSpacing;
      const over = (laid - ink) / f.size;
      expect({ text, fits: over > -0.05 && over < 0.25 }).toEqual({ text, fits: true });
    }
  });

  it('is far from the old 0.52 em estimate where titles were missed', async () => {
    const f = font(CASES[0]![0]);
    const ink = await inkWidth('font-size="50" font-weight="bold"', 'SUMMER FESTIVAL');
    expect(runWidth('SUMMER FESTIVAL', f) - ink).toBeLessThan(0.25 * 50);
    expect(ink - 0.52 * 50 * 15).toBeGreaterThan(100);
  });

  it('resolves families, weights and styles as fontconfig does', () => {
    expect(faceFile('Arial, Helvetica')).toMatch(/DejaVuSans\.ttf$/);
    expect(faceFile("Georgia, 'Times New Roman', serif", 'bold', 'italic')).toMatch(
      /DejaVuSerif-BoldItalic\.ttf$/,
    );
    expect(faceFile('Courier, monospace', '600', 'oblique')).toMatch(
      /DejaVuSansMono-BoldOblique\.ttf$/,
    );
    expect(faceFile('sans-serif, serif', '400')).toMatch(/DejaVuSans\.ttf$/);
  });

  it('reads sizes and spacing in every unit, and keeps the parent on nonsense', () => {
    expect(fontSize('12pt', 16)).toBe(16);
    expect(fontSize('1.5em', 20)).toBe(30);
    expect(fontSize('150%', 20)).toBe(30);
    expect(fontSize('x-large', 16)).toBe(24);
    expect(fontSize('calc(1px', 16)).toBe(16);
    expect(spacing('0.1em', 50, 0)).toBe(5);
    expect(spacing('normal', 50, 3)).toBe(0);
    expect(spacing('wide', 50, 3)).toBe(3);
  });

  it('estimates a character no pinned font has', () => {
    const f = font({ 'font-size': '10' });
    expect(runWidth('\ue000\ue000', f)).toBeCloseTo(12, 5);
  });
});
