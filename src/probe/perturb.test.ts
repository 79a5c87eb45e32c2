import { describe, expect, it } from 'vitest';
import {
  blankPage,
  croppedHalf,
  decorativeStrokes,
  duplicated,
  invisiblePadding,
  largestShapeDeleted,
  promptWords,
  saturate,
  saturatedRecolour,
  shrunkToCorner,
  writePromptWords,
} from './perturb.ts';
import { parseSvgDoc, pathBox, shapeSpans } from './svg-doc.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 32 32"><defs><linearGradient id="abc"><stop stop-color="#808080"/></linearGradient><clipPath id="c"><rect width="32" height="32"/></clipPath></defs><rect x="2" y="2" width="28" height="28" fill="url(#abc)"/><circle cx="16" cy="16" r="4" fill="#c33"/><path d="m4 4l2 0l0 2z" fill="#3c3"/><use href="#abc"/></svg>';
const ctx = { prompt: 'a red apple with a leaf', seed: 7 };

describe('svg document', () => {
  it('reads the root box from viewBox, else width and height', () => {
    expect(parseSvgDoc(SVG)!.box).toEqual({ x: 0, y: 0, w: 32, h: 32 });
    expect(parseSvgDoc('<svg width="40" height="20"></svg>')!.box).toEqual({
      x: 0,
      y: 0,
      w: 40,
      h: 20,
    });
    expect(parseSvgDoc('no svg here')).toBeNull();
  });

  it('finds drawn shapes, largest first, skipping those inside defs and clip paths', () => {
    const spans = shapeSpans(parseSvgDoc(SVG)!.body);
    expect(spans.map((s) => s.tag)).toEqual(['rect', 'circle', 'path']);
    expect(spans[0]!.area).toBe(28 * 28);
  });

  it('bounds relative and absolute path commands', () => {
    expect(pathBox('m4 4l2 0l0 2z')).toEqual({ x: 4, y: 4, w: 2, h: 2 });
    expect(pathBox('M10 10H20V30')).toEqual({ x: 10, y: 10, w: 10, h: 20 });
    expect(pathBox('M0 0c1 1 2 2 3-3')).toEqual({ x: 0, y: -3, w: 3, h: 5 });
  });
});

describe('perturbations', () => {
  it('are deterministic for a seed and differ between seeds', () => {
    const a = decorativeStrokes(50)(SVG, ctx);
    expect(decorativeStrokes(50)(SVG, ctx)).toBe(a);
    expect(decorativeStrokes(50)(SVG, { ...ctx, seed: 8 })).not.toBe(a);
    expect(a!.match(/<path /g)!.length).toBe(51);
  });

  it('write the prompt content words, escaped', () => {
    expect(promptWords('a red apple with a leaf')).toEqual(['red', 'apple', 'leaf']);
    const out = writePromptWords(SVG, { ...ctx, prompt: 'cats & <dogs>' })!;
    expect(out).toContain('>CATS DOGS</tspan></text>');
    expect(writePromptWords(SVG, { ...ctx, prompt: 'a of' })).toBeNull();
  });

  it('recolour hex colours, never #id references', () => {
    expect(saturate('#cc3333')).toBe('#ff0000');
    expect(saturate('#808080')).toBe('#818181');
    expect(saturate('#202020')).toBe('#000000');
    const out = saturatedRecolour(SVG, ctx)!;
    expect(out).toContain('url(#abc)');
    expect(out).toContain('href="#abc"');
    expect(out).toContain('fill="#ff0000"');
    expect(saturatedRecolour('<svg><rect fill="red"/></svg>', ctx)).toBeNull();
  });

  it('duplicate, shrink, pad, blank, crop and delete as documented', () => {
    expect(duplicated(SVG, ctx)!.match(/<circle /g)).toHaveLength(2);
    expect(shrunkToCorner(SVG, ctx)).toContain('scale(0.25)');
    const padded = invisiblePadding(3)(SVG, ctx)!;
    expect(padded.length).toBeGreaterThanOrEqual(SVG.length * 3);
    expect(padded.startsWith(SVG.slice(0, SVG.lastIndexOf('</svg>')))).toBe(true);
    expect(blankPage(SVG, ctx)).toBe(`${parseSvgDoc(SVG)!.open}</svg>`);
    const cropped = croppedHalf(SVG, ctx)!;
    expect(cropped).toContain('viewBox="0 0 16 32"');
    expect(cropped).toContain('width="32"');
    const deleted = largestShapeDeleted(SVG, ctx)!;
    expect(deleted).not.toContain('width="28"');
    expect(deleted).toContain('<circle');
    // The clip path's rect is not a drawn shape and stays.
    expect(deleted).toContain('<clipPath id="c"><rect width="32" height="32"/>');
  });
});
