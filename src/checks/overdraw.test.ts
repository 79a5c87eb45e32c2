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

  it('does not count a nearly invisible full-canvas overlay as a layer (issue 25)', () => {
    // Sky, sea, ground, a subject, and three hazes over the whole picture at 2–45 % opacity.
    let body =
      '<rect width="512" height="512" fill="#9cf"/><rect y="250" width="512" height="262" fill="#36a"/><rect y="380" width="512" height="132" fill="#dc9"/><circle cx="256" cy="300" r="90" fill="#c33"/>';
    for (let i = 0; i < 18; i++) body += `<circle cx="${40 + i * 25}" cy="60" r="6" fill="#fff"/>`;
    body +=
      '<rect width="512" height="512" fill="#fff" opacity="0.45"/><rect width="512" height="512" fill="#fc0" fill-opacity="0.2"/><rect width="512" height="512" fill="#000" opacity="0.02"/>';
    const c = clutter(input(body, 'a red ball on a beach at noon', 25));
    expect((c.detail as { overdraw: number }).overdraw).toBeLessThan(3);
    expect(c.flag).toBe(false);
  });
});

describe('a planted pile of 300 strokes (issue 25)', () => {
  // Each prompt holds a number that is not a count of things: a pile must flag under all.
  let pile = '';
  for (let i = 0; i < 300; i++)
    pile += `<path d="M${(i * 37) % 512} ${(i * 91) % 512} l40 ${(i % 7) * 9}" stroke="#333" fill="none"/>`;
  it.each([
    'a paper plane flying at ~45° towards the sun',
    'a 2022-era smartphone on a desk',
    'a 500x700 poster of a lion',
    'a fox; the SVG should use viewBox="0 0 800 600"',
    'a 1920s car parked in 1930 Chicago',
  ])('flags under: %s', (prompt) => {
    const doc = svg(pile, '0 0 512 512');
    const c = clutter({
      artifact: { svg: doc } as CheckInput['artifact'],
      render: {
        ok: false,
        error: { code: 'render_error', message: '' },
        ms: 0,
        code: sanitizeSvg(doc).code!,
      },
      prompt,
      options: resolveCheckOptions(),
    });
    expect(c.flag).toBe(true);
  });
});
