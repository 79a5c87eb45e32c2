// missing_glyphs on real renders: text in every script the pinned chain covers passes, a
// character no pinned font has (private use, unassigned) is counted with its script, in
// whatever element of the drawing writes it.
import { afterAll, describe, expect, it } from 'vitest';
import { extractArtifact } from '../artifact/extract.ts';
import { createRenderPool } from '../render/index.ts';
import { scriptOf } from './missing-glyphs.ts';
import { runChecks } from './run-checks.ts';

const pool = createRenderPool({ workers: 1 });
afterAll(() => pool.close());

async function missing(body: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">${body}</svg>`;
  const artifact = await extractArtifact(`\`\`\`svg\n${svg}\n\`\`\``);
  const render = await pool.render(artifact.svg!);
  return runChecks(artifact, render, 'a sign').find((c) => c.name === 'missing_glyphs')!;
}

describe('missing_glyphs', () => {
  it('passes text in every script of the chain, and Latin, accents and symbols', async () => {
    const text = '漢字 ひらがな カタカナ 한국어 مرحبا שלום नमस्ते বাংলা தமிழ் สวัสดี ქართ 🍎🚀 café ✓ ★ ½';
    const r = await missing(`<text x="10" y="50">${text}</text>`);
    expect(r).toMatchObject({ value: 0, flag: false });
  });

  it('counts a private-use character no font has, with its code and script', async () => {
    const r = await missing('<text x="10" y="50">Open <tspan>\ue001\ue001</tspan> now</text>');
    expect(r.flag).toBe(true);
    expect(r.value).toBe(2);
    expect(r.detail).toMatchObject({
      chars: [{ char: '\ue001', code: 'U+E001', script: 'Private use' }],
      distinct: 1,
      scripts: { 'Private use': 2 },
    });
  });

  it('counts characters written as numeric references and in a nested text element', async () => {
    const r = await missing(
      '<g><text x="1" y="20">&#xF8FF;</text><g><text x="1" y="60"><tspan>&#x10FFFD;x</tspan></text></g></g>',
    );
    expect(r.value).toBe(2);
    expect(Object.keys(r.detail!.scripts as object).sort()).toEqual(['Private use']);
  });

  it('ignores spaces, joiners and variation selectors, which no font needs a glyph for', async () => {
    const r = await missing('<text x="1" y="20">a\u00a0b\u200dc\ufe0f\u2003d</text>');
    expect(r.value).toBe(0);
  });

  it('names scripts outside the chain', () => {
    expect(scriptOf('\ue000')).toBe('Private use');
    expect(scriptOf('\u0378')).toBe('Unassigned');
    expect(scriptOf('ꆈ')).toBe('Yi');
    expect(scriptOf('🦒')).toBe('Emoji');
  });
});
