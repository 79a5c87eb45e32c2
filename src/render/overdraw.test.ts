// Overdraw from geometry, as the sanitiser measures it on its one parse of the document:
// exact on rectangles, close on curves and arcs, transforms and <use> applied, the canvas
// clips, unpainted content (defs, none, display:none) ignored.
import { describe, expect, it } from 'vitest';
import { localShape, OVERDRAW_MIN_ELEMENTS, type ShapeMemo } from './overdraw.ts';
import { sanitizeSvg } from './sanitize.ts';

// Twenty empty groups: drawings of fewer elements are not measured (nothing can pile up).
const PAD = '<g/>'.repeat(OVERDRAW_MIN_ELEMENTS);
const svg = (body: string, vb = '0 0 100 100') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="${vb}">${body}${PAD}</svg>`;
const measured = (doc: string, size?: number) => sanitizeSvg(doc, { size }).code?.overdraw;
const od = (body: string, vb?: string) => measured(svg(body, vb))!.layers;

describe('overdraw in CodeStats', () => {
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

  it('reads the document as written: the canvas fit does not change it', () => {
    const doc = svg('<rect width="100" height="50"/><circle cx="50" cy="50" r="20"/>');
    const plain = measured(doc)!;
    expect(plain.layers).toBeGreaterThan(0.5);
    // Fitted to 512×512 the root's width, height and viewBox are rewritten; the layers are
    // still those of the drawing's own box.
    expect(measured(doc, 512)).toEqual(plain);
  });

  it('is not measured below the element floor', () => {
    const small = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${'<rect width="10" height="10"/>'.repeat(OVERDRAW_MIN_ELEMENTS - 2)}</svg>`;
    expect(sanitizeSvg(small).code?.expandedElements).toBe(OVERDRAW_MIN_ELEMENTS - 1);
    expect(sanitizeSvg(small).code?.overdraw).toBeUndefined();
  });

  it('is measured on the outer document only, and not on a prefixed root', () => {
    const inner = svg('<rect width="100" height="100"/>');
    const outer = svg(
      `<rect width="100" height="100"/><image width="100" height="100" href="data:image/svg+xml;base64,${Buffer.from(inner).toString('base64')}"/>`,
    );
    // The nested image is not a shape of the outer drawing: one layer, one shape.
    expect(measured(outer)).toEqual({ layers: 1, shapes: 1, capped: false });
    const prefixed = `<svg:svg xmlns:svg="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><svg:rect width="10" height="10"/>${'<svg:g/>'.repeat(20)}</svg:svg>`;
    const s = sanitizeSvg(prefixed);
    expect(s.ok).toBe(true);
    expect(s.code?.overdraw).toBeUndefined();
  });

  it('has none when the document does not parse; stops at its budget on <use> fan-out', () => {
    expect(sanitizeSvg('not svg').code?.overdraw).toBeUndefined();
    let fan = '<rect id="a0" width="1" height="1"/>';
    const four = (i: number) => `<use href="#a${i - 1}"/>`.repeat(4);
    for (let i = 1; i < 9; i++) fan += `<g id="a${i}">${four(i)}</g>`;
    // 4^8 = 65,536 copies: the sanitiser refuses it (too_large), the measure still caps.
    const r = sanitizeSvg(svg(`<defs>${fan}</defs><use href="#a8"/>`));
    expect(r.ok).toBe(false);
    expect(r.code?.overdraw?.capped).toBe(true);
  });
});

describe('overdraw weighted by what shows (issue 25)', () => {
  it('counts a nearly invisible full-canvas overlay as its opacity, not as a layer', () => {
    // Sky, ground, and a 10 % haze over the whole picture: 1 + 0.5 + 0.1.
    const scene = '<rect width="100" height="100"/><rect y="50" width="100" height="50"/>';
    expect(od(`${scene}<rect width="100" height="100" fill="#fff" opacity="0.1"/>`)).toBeCloseTo(
      1.6,
      6,
    );
    expect(od(`${scene}<rect width="100" height="100" fill-opacity="0.02"/>`)).toBeCloseTo(1.52, 6);
    expect(od(`${scene}<rect width="100" height="100" fill="rgba(0,0,0,0.45)"/>`)).toBeCloseTo(
      1.95,
      6,
    );
    expect(od(`${scene}<rect width="100" height="100" fill="#00000033"/>`)).toBeCloseTo(1.7, 6);
    // Group opacity composes with the shape's own.
    expect(
      od(`${scene}<g opacity="0.5"><rect width="100" height="100" opacity="40%"/></g>`),
    ).toBeCloseTo(1.7, 6);
  });
  it('still counts small translucent marks nearly whole, so a pile of them piles up', () => {
    // A 10×10 blob at 0.2 covers 1 % of the canvas and counts 0.99 of its area.
    expect(od('<rect width="10" height="10" fill-opacity="0.2"/>')).toBeCloseTo(0.0099, 6);
  });
});

describe('a shape sampled once per parse (issue 36)', () => {
  it('gives overdraw and the frame reading the same polygons for one element', () => {
    // Both read every filled shape of the sanitiser's parse; sampling a path twice was a
    // sixth of sanitising a Fluent Emoji. The memo is per parse, by the attribute object.
    const memo: ShapeMemo = new Map();
    const a = { d: 'M0 0 C10 0 10 10 0 10 A5 5 0 0 1 0 0 Z' };
    const first = localShape('path', a, memo);
    expect(first?.[0]?.length).toBeGreaterThan(10);
    expect(localShape('path', a, memo)).toBe(first);
    // Another element with the same attributes is its own entry, with equal polygons.
    const b = { ...a };
    expect(localShape('path', b, memo)).not.toBe(first);
    expect(localShape('path', b, memo)).toEqual(first);
    expect(localShape('g', {}, memo)).toBeNull();
    // Without a memo (a caller outside a parse) nothing is kept.
    expect(localShape('path', a)).not.toBe(first);
    expect(localShape('path', a)).toEqual(first);
  });
});
