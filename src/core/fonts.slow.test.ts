// The pinned font configuration, as fontconfig itself reads it: generic families map to
// DejaVu, and a family the machine does not have falls back to DejaVu Sans, whatever else
// is installed (this machine also has Latin Modern, which fontconfig could otherwise pick).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FONT_FILES, fontChainStatus, fontEnv } from './fonts.ts';

function match(family: string, format = '%{family[0]}'): string {
  const r = spawnSync('fc-match', ['-f', format, family], {
    env: { ...process.env, ...fontEnv() },
    encoding: 'utf8',
  });
  return r.stdout;
}

describe('pinned fonts', () => {
  it('maps generic families onto DejaVu', () => {
    expect(match('sans-serif')).toBe('DejaVu Sans');
    expect(match('serif')).toBe('DejaVu Serif');
    expect(match('monospace')).toBe('DejaVu Sans Mono');
    expect(match('cursive')).toBe('DejaVu Sans');
  });

  it('falls back to DejaVu Sans for families the machine lacks, never to another font', () => {
    expect(match('Comic Sans MS')).toBe('DejaVu Sans');
    expect(match('Latin Modern Roman')).toBe('DejaVu Sans'); // installed, but not pinned
  });

  it('rasterises unhinted in grey, as Chromium with font-render-hinting=none', () => {
    // Hinted outlines made librsvg's text 1.8–4.2/255 off Chromium's (docs/rendering.md).
    const f = '%{hinting} %{hintstyle} %{antialias} %{rgba} %{lcdfilter} %{autohint}';
    expect(match('sans-serif', f)).toBe('False 0 True 5 0 False');
    expect(match('Georgia', f)).toBe('False 0 True 5 0 False');
  });

  it('gives resvg the regular, bold and italic files of each family', () => {
    expect(FONT_FILES.length).toBe(12);
  });
});

describe('pinned fallback chain', () => {
  // A character DejaVu lacks goes to the chain's font for its script, whatever family was
  // asked for and whatever else the machine has installed (it also has Droid Sans Fallback
  // and 500 Noto fonts, which unpinned fontconfig could pick).
  it.each([
    ['漢', 'WenQuanYi Micro Hei'],
    ['한', 'WenQuanYi Micro Hei'],
    ['न', 'Noto Sans Devanagari'],
    ['ก', 'Noto Sans Thai'],
    ['🍎', 'Symbola'],
  ])('draws %s with %s', (ch, family) => {
    const cp = ch.codePointAt(0)!.toString(16);
    expect(match(`sans-serif:charset=${cp}`)).toBe(family);
    expect(match(`Georgia:charset=${cp}`)).toBe(family);
  });

  it('lists every family with its package and whether it is installed', () => {
    const status = fontChainStatus();
    expect(status[0]?.family).toBe('DejaVu Sans');
    const cjk = status.find((f) => f.scripts.includes('Han'));
    expect(cjk).toMatchObject({ package: 'fonts-wqy-microhei', installed: true });
    expect(status.every((f) => f.installed)).toBe(true);
  });
});
