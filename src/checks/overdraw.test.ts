// The clutter check reads the overdraw the render worker measured (CodeStats, from the
// sanitiser's one parse; the geometry itself is tested in src/render/overdraw.test.ts) and
// weighs it for SVG answers with enough elements to pile up. It then flags a pile of
// translucent blobs that no other measure catches.
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../artifact/types.ts';
import { OVERDRAW_MIN_ELEMENTS } from '../render/overdraw.ts';
import { sanitizeSvg } from '../render/sanitize.ts';
import type { CodeStats } from '../render/types.ts';
import { clutter } from './clutter.ts';
import { overdrawFor } from './overdraw.ts';
import { resolveCheckOptions } from './thresholds.ts';
import type { CheckInput } from './types.ts';

const svg = (body: string, vb = '0 0 100 100') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${vb}">${body}</svg>`;

describe('overdrawFor', () => {
  const code = (expandedElements: number): CodeStats => ({
    // 20 empty groups: enough elements for the worker to measure the one rect.
    ...sanitizeSvg(svg(`<rect width="100" height="100"/>${'<g/>'.repeat(20)}`)).code!,
    expandedElements,
  });
  const answer = { svg: svg('') } as Artifact;

  it("gives the render's geometry for an SVG answer with enough elements", () => {
    expect(overdrawFor(answer, code(OVERDRAW_MIN_ELEMENTS))).toEqual({
      layers: 1,
      shapes: 1,
      capped: false,
    });
  });
  it('gives nothing below the element floor, for another domain, or when not measured', () => {
    expect(overdrawFor(answer, code(OVERDRAW_MIN_ELEMENTS - 1))).toBeNull();
    expect(overdrawFor({} as Artifact, code(100))).toBeNull();
    const { overdraw: _, ...unmeasured } = code(100);
    expect(overdrawFor(answer, unmeasured)).toBeNull();
  });
});

describe('clutter with overdraw', () => {
  // The code facts come from the real sanitiser (overdraw included); the counts the clutter
  // rules weigh are set by each case.
  const input = (body: string, prompt: string, elements: number, stroked = 0): CheckInput => {
    const doc = svg(body, '0 0 512 512');
    const measured = sanitizeSvg(doc).code!;
    return {
      artifact: { svg: doc } as CheckInput['artifact'],
      render: {
        ok: false,
        error: { code: 'render_error', message: '' },
        ms: 0,
        code: { ...measured, elements, expandedElements: elements, strokedShapes: stroked },
      },
      prompt,
      options: resolveCheckOptions(),
    };
  };

  it('flags 80 large translucent blobs piled up (nothing else is over its allowance)', () => {
    let blobs = '';
    for (let i = 0; i < 80; i++)
      blobs += `<ellipse cx="${200 + (i % 9) * 10}" cy="${200 + (i % 7) * 10}" rx="120" ry="100" fill-opacity="0.2"/>`;
    const c = clutter(input(blobs, 'a red apple', 80));
    expect(c.detail).toMatchObject({ overdrawMeasured: true });
    expect((c.detail as { overdraw: number }).overdraw).toBeGreaterThan(8);
    expect(c.flag).toBe(true);
  });

  it('reads the overdraw the render measured, not a second parse of the answer', () => {
    const plain = input('<rect width="512" height="512"/>', 'a red apple', 40);
    const code = plain.render!.code!;
    expect(clutter(plain).flag).toBe(false);
    // The render's measure is what counts: the parent does not parse the SVG again.
    const piled = {
      ...plain,
      render: {
        ...plain.render!,
        code: { ...code, overdraw: { layers: 40, shapes: 40, capped: false } },
      },
    } as CheckInput;
    expect(clutter(piled).flag).toBe(true);
    expect(clutter(piled).detail).toMatchObject({ overdraw: 40, overdrawMeasured: true });
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
