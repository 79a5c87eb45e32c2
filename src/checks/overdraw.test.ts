// Overdraw from geometry: exact on rectangles, close on curves and arcs, transforms and
// <use> applied, the canvas clips, unpainted content (defs, none, display:none) ignored.
// The clutter check then flags a pile of translucent blobs that no other measure catches.
import { describe, expect, it } from 'vitest';
import { clutter } from './clutter.ts';
import { measureOverdraw } from './overdraw.ts';
import { resolveCheckOptions } from './thresholds.ts';
import type { CheckInput } from './types.ts';

const svg = (body: string, vb = '0 0 100 100') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${vb}">${body}</svg>`;
const od = (body: string, vb?: string) => measureOverdraw(svg(body, vb))!.overdraw;

describe('measureOverdraw', () => {
  it('is 1 for one full-bleed rect and adds layers', () => {
    expect(od('<rect width="100" height="100"/>')).toBeCloseTo(1, 9);
    expect(od('<rect width="100" height="100"/><rect width="100" height="50"/>')).toBeCloseTo(
      1.5,
      9,
    );
  });
  it('clips to the canvas and follows the viewBox origin', () => {
    expect(od('<rect x="50" y="-50" width="100" height="100"/>')).toBeCloseTo(0.25, 9);
    expect(od('<rect x="-10" y="-10" width="10" height="10"/>', '-10 -10 20 20')).toBeCloseTo(
      0.25,
      9,
    );
  });
  it('measures circles, ellipses, arcs and curves within 5%', () => {
    expect(od('<circle cx="50" cy="50" r="50"/>')).toBeCloseTo(Math.PI / 4, 1);
    expect(od('<ellipse cx="50" cy="50" rx="50" ry="25"/>')).toBeCloseTo(Math.PI / 8, 1);
    const arcs = od('<path d="M0 50 A50 50 0 1 0 100 50 A50 50 0 1 0 0 50 Z"/>');
    expect(Math.abs(arcs - Math.PI / 4) / (Math.PI / 4)).toBeLessThan(0.05);
    // A relative cubic "circle" (4 quarter curves, kappa 0.5523).
    const k = 50 * 0.5523;
    const cubic = od(
      `<path d="M50 0 c${k} 0 50 ${50 - k} 50 50 s${-50 + k} 50 -50 50 s-50 ${-50 + k} -50 -50 S${50 - k} 0 50 0z"/>`,
    );
    expect(Math.abs(cubic - Math.PI / 4) / (Math.PI / 4)).toBeLessThan(0.05);
  });
  it('applies transforms (nested) and <use> with x/y', () => {
    expect(od('<g transform="scale(0.5)"><rect width="100" height="100"/></g>')).toBeCloseTo(
      0.25,
      9,
    );
    expect(
      od(
        '<g transform="translate(50 0)"><g transform="rotate(90 25 25)"><rect width="50" height="50"/></g></g>',
      ),
    ).toBeCloseTo(0.25, 6);
    expect(
      od(
        '<defs><symbol id="s"><rect width="10" height="10"/></symbol></defs><use href="#s"/><use xlink:href="#s" x="95"/>',
      ),
    ).toBeCloseTo(0.015, 9);
  });
  it('ignores what is not painted', () => {
    expect(
      od(
        '<defs><rect width="100" height="100"/></defs><clipPath><rect width="100" height="100"/></clipPath>',
      ),
    ).toBe(0);
    expect(
      od(
        '<rect width="100" height="100" fill="none"/><rect width="100" height="100" style="display:none"/>',
      ),
    ).toBe(0);
    expect(od('<g fill="none"><rect width="100" height="100"/></g>')).toBe(0);
  });
  it('counts strokes as length × width', () => {
    expect(
      od('<line x1="0" y1="50" x2="100" y2="50" stroke="#000" stroke-width="10"/>'),
    ).toBeCloseTo(0.1, 9);
    expect(
      od('<g stroke="red" stroke-width="2" fill="none"><path d="M0 10 H100"/></g>'),
    ).toBeCloseTo(0.02, 9);
  });
  it('returns null for what does not parse, and stops at its budget on <use> fan-out', () => {
    expect(measureOverdraw('not svg')).toBeNull();
    let fan = '<rect id="a0" width="1" height="1"/>';
    const four = (i: number) => `<use href="#a${i - 1}"/>`.repeat(4);
    for (let i = 1; i < 9; i++) fan += `<g id="a${i}">${four(i)}</g>`;
    const r = measureOverdraw(svg(`<defs>${fan}</defs><use href="#a8"/>`))!; // 4^8 = 65,536
    expect(r.capped).toBe(true);
  });
});

describe('clutter with overdraw', () => {
  const input = (body: string, prompt: string, elements: number, stroked = 0): CheckInput => ({
    artifact: { svg: svg(body, '0 0 512 512') } as CheckInput['artifact'],
    render: {
      ok: false,
      error: { code: 'render_error', message: '' },
      ms: 0,
      code: {
        bytes: 0, elements, maxDepth: 2, pathSegments: 0, expandedElements: elements,
        texts: [], strokedShapes: stroked, removed: [], viewBox: null,
      }, // biome-ignore format: a fixture
    },
    prompt,
    options: resolveCheckOptions(),
  });

  it('flags 80 large translucent blobs piled up (nothing else is over its allowance)', () => {
    let blobs = '';
    for (let i = 0; i < 80; i++)
      blobs += `<ellipse cx="${200 + (i % 9) * 10}" cy="${200 + (i % 7) * 10}" rx="120" ry="100" fill-opacity="0.2"/>`;
    const c = clutter(input(blobs, 'a red apple', 80));
    expect(c.detail).toMatchObject({ overdrawMeasured: true });
    expect((c.detail as { overdraw: number }).overdraw).toBeGreaterThan(8);
    expect(c.flag).toBe(true);
  });

  it('does not count 240 <use> copies of a symbol the prompt asked for', () => {
    let uses = '';
    for (let i = 0; i < 240; i++)
      uses += `<use href="#s" x="${(i * 37) % 500}" y="${(i * 53) % 500}"/>`;
    const body = `<defs><symbol id="s"><polygon points="0,0 8,0 4,8"/></symbol></defs><rect width="512" height="512"/>${uses}`;
    const c = clutter({
      ...input(body, 'a night sky with 240 stars', 244),
      render: {
        ...input(body, '', 244).render!,
        code: { ...input(body, '', 244).render!.code!, elements: 244, expandedElements: 484 },
      } as CheckInput['render'],
    });
    expect(c.flag).toBe(false);
    expect(c.detail).toMatchObject({ repetitionAsked: { count: 240, pattern: true } });
  });

  it('raises the stroke allowance for a pattern asked for, not for a plain subject', () => {
    expect(clutter(input('', 'heavy rain with many streaks', 150, 150)).flag).toBe(false);
    expect(clutter(input('', 'a red apple', 150, 150)).flag).toBe(true);
  });
});
