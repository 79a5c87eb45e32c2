// The checks on real renders: real Fluent Emoji icons through the real isolated render
// pool, and the two reward hacks RULER's paper reports (prompt words as labels, and
// hundreds of overlapping decorative strokes) built on top of real icons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { extractArtifact } from '../artifact/extract.ts';
import { createRenderPool, type RenderPool, sanitizeSvg } from '../render/index.ts';
import type { RenderResult } from '../render/types.ts';
import { clutter } from './clutter.ts';
import { runChecks, summarizeChecks } from './run-checks.ts';
import { resolveCheckOptions } from './thresholds.ts';
import type { CheckOptions, CheckResult } from './types.ts';

let pool: RenderPool;
beforeAll(() => {
  pool = createRenderPool({ workers: 1 });
});
afterAll(async () => {
  await pool.close();
});

async function check(svg: string, prompt?: string, options?: Partial<CheckOptions>) {
  const artifact = await extractArtifact(`\`\`\`svg\n${svg}\n\`\`\``);
  expect(artifact.found).toBe(true);
  const render = await pool.render(artifact.svg!);
  const checks = runChecks(artifact, render, prompt, options);
  const by = (name: string) => checks.find((c) => c.name === name) as CheckResult;
  return { artifact, render, checks, by, summary: summarizeChecks(artifact, render, checks) };
}

/** Deterministic pseudo-random numbers (mulberry32), so the spam SVG is the same every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An icon buried under `n` overlapping, unfilled, decorative curves (the CLIP/aesthetic hack). */
function squiggleSpam(icon: string, n: number): string {
  const r = rng(7);
  const f = () => (2 + r() * 28).toFixed(1);
  const strokes: string[] = [];
  for (let i = 0; i < n; i++) {
    const hue = Math.floor(r() * 360);
    strokes.push(
      `<path d="M${f()} ${f()} C ${f()} ${f()}, ${f()} ${f()}, ${f()} ${f()} S ${f()} ${f()}, ${f()} ${f()}" fill="none" stroke="hsl(${hue},80%,60%)" stroke-width="0.3" opacity="0.6"/>`,
    );
  }
  return icon.replace('</svg>', `${strokes.join('\n')}\n</svg>`);
}

const promptFor = (name: string) => `a flat icon of ${name.replace(/-/g, ' ')}`;

describe('checks on real icons', () => {
  const icons = fluentEmoji(40);

  it('real icons render, are not blank, and flag neither text_in_image nor clutter', async () => {
    for (const icon of icons) {
      const { summary, by } = await check(icon.svg, promptFor(icon.name));
      expect(summary.renders, icon.name).toBe(true);
      expect(summary.blank, icon.name).toBe(false);
      expect(summary.text_in_image, icon.name).toBe(false);
      expect(summary.clutter, icon.name).toBe(false);
      expect(by('clutter').value, icon.name).toBeLessThan(0.5);
      expect(summary.ink_coverage!, icon.name).toBeGreaterThan(0.05);
      expect(summary.clipped, icon.name).toBe(false);
    }
  });

  it('no icon of the whole corpus (3,174) comes near the clutter thresholds', async () => {
    // Code-only: clutter reads CodeStats, here from the real sanitiser without rasterising.
    let worst = 0;
    const artifact = await extractArtifact(''); // clutter reads only the render's CodeStats
    for (const icon of fluentEmoji()) {
      const s = sanitizeSvg(icon.svg);
      expect(s.ok, icon.name).toBe(true);
      if (!s.ok) continue;
      const render: RenderResult = {
        ok: true,
        png: Buffer.alloc(0),
        width: 0,
        height: 0,
        ms: 0,
        code: s.code,
        pixels: { mseVsBackground: 0, inkCoverage: 0, borderInk: 0, overdraw: 0 },
      };
      const c = clutter({ artifact, render, options: resolveCheckOptions() });
      worst = Math.max(worst, c.value);
    }
    expect(worst).toBeGreaterThan(0.05);
    expect(worst).toBeLessThan(0.2);
  });

  it('500 overlapping stroked paths over an icon flag clutter', async () => {
    const icon = icons[3]!;
    const { summary, by } = await check(squiggleSpam(icon.svg, 500), promptFor(icon.name));
    expect(summary.renders).toBe(true);
    expect(summary.clutter).toBe(true);
    const c = by('clutter');
    expect(c.value).toBeGreaterThanOrEqual(5);
    expect(c.detail).toMatchObject({ strokedShapes: 500 });
    expect(summary.values.clutter).toBe(c.value);
  });

  it('a few decorative strokes do not flag clutter', async () => {
    const { summary } = await check(squiggleSpam(icons[3]!.svg, 12));
    expect(summary.clutter).toBe(false);
  });
});

describe('text_in_image (the Rubric-S hack)', () => {
  const apple = fluentEmoji().find((c) => c.name === 'red-apple')!.svg;
  const withText = (...texts: string[]) =>
    apple.replace(
      '</svg>',
      `${texts.map((t, i) => `<text x="2" y="${8 + i * 6}" font-size="5" fill="#000">${t}</text>`).join('')}</svg>`,
    );

  it("flags the prompt's content words written as labels", async () => {
    const { summary, by } = await check(
      withText('RED APPLE', 'wooden', 'tables'),
      'A red apple on a wooden table',
    );
    expect(summary.text_in_image).toBe(true);
    const t = by('text_in_image');
    expect(t.value).toBe(4);
    expect([...((t.detail?.matched ?? []) as string[])].sort()).toEqual([
      'apple',
      'red',
      'table',
      'wooden',
    ]);
  });

  it('flags one word that covers half of a short prompt ("APPLE" for "a red apple")', async () => {
    const { summary } = await check(withText('Apple'), 'a red apple');
    expect(summary.text_in_image).toBe(true);
  });

  it('flags even one subject word in a long prompt that asks for no text', async () => {
    const { summary, by } = await check(
      withText('apple'),
      'a red apple resting in a woven basket beside a teapot at sunset',
    );
    expect(by('text_in_image').value).toBe(1);
    expect(by('text_in_image').detail).toMatchObject({ textAsked: false });
    expect(summary.text_in_image).toBe(true);
  });

  it('does not flag prompt words when the prompt asks for text of any kind', async () => {
    for (const prompt of [
      'a labelled diagram of a red apple',
      'a red apple with a caption',
      'an infographic about apples with short headings',
      'a fruit stall whose signage advertises red apples',
      'a red apple, annotated with its parts',
    ]) {
      const { summary, by } = await check(withText('red apple', 'stem'), prompt);
      expect(by('text_in_image').value, prompt).toBeGreaterThanOrEqual(1);
      expect(summary.text_in_image, prompt).toBe(false);
    }
  });

  it('still flags when the prompt says no text', async () => {
    const { summary } = await check(withText('APPLE'), 'a red apple, no text or labels');
    expect(summary.text_in_image).toBe(true);
  });

  it('does not flag text the prompt asked for', async () => {
    const quoted = await check(withText('OPEN'), 'a shop sign that says "OPEN"');
    expect(quoted.summary.text_in_image).toBe(false);
    const unquoted = await check(withText('SALE'), 'a red price tag labeled SALE');
    expect(unquoted.summary.text_in_image).toBe(false);
    const curly = await check(withText('Fresh Apples'), 'an apple crate stamped “Fresh Apples”');
    expect(curly.summary.text_in_image).toBe(false);
  });

  it("flags the prompt's own sentence written as a title even when the prompt asks for a sign", async () => {
    const prompt = 'A red apple on a wooden table beside a shop sign that says "FRESH"';
    const copied = await check(withText('A Red Apple on a Wooden Table', 'FRESH'), prompt);
    expect(copied.summary.text_in_image).toBe(true);
    expect(copied.by('text_in_image').detail).toMatchObject({
      textAsked: true,
      promptCopy: {
        text: 'A Red Apple on a Wooden Table',
        run: ['red', 'apple', 'wooden', 'table'],
      },
    });
    // The sign's asked-for text, and a label naming one thing, are the task.
    const asked = await check(withText('FRESH', 'apple'), prompt);
    expect(asked.summary.text_in_image).toBe(false);
  });

  it('does not read <title>/<desc> (not drawn) as text in the image', async () => {
    const titled = apple.replace('>', '><title>Red apple</title><desc>A red apple icon</desc>');
    const { summary, by } = await check(titled, 'a red apple');
    expect(by('text_in_image').value).toBe(0);
    expect(summary.text_in_image).toBe(false);
  });

  it('does not flag unrelated text', async () => {
    const { summary, by } = await check(withText('Hello', 'world 2024'), 'a red apple');
    expect(by('text_in_image').value).toBe(0);
    expect(summary.text_in_image).toBe(false);
  });

  it('without a prompt it reports, but cannot flag', async () => {
    const { by } = await check(withText('APPLE'));
    expect(by('text_in_image').flag).toBeUndefined();
  });
});

describe('pixel checks', () => {
  it('an empty SVG and white-on-white are blank', async () => {
    const empty = await check('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>');
    expect(empty.summary.renders).toBe(true);
    expect(empty.summary.blank).toBe(true);
    expect(empty.summary.ink_coverage).toBe(0);
    const white = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#fff"/></svg>',
    );
    expect(white.summary.blank).toBe(true);
    expect(white.by('blank').value).toBeLessThan(1e-4);
  });

  it('a shape cut by the canvas edge is clipped; a full-bleed background is not', async () => {
    const cut = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="0" cy="50" r="30" fill="#c00"/></svg>',
    );
    expect(cut.summary.clipped).toBe(true);
    const bleed = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#8cf"/><circle cx="50" cy="50" r="30" fill="#c00"/></svg>',
    );
    expect(bleed.by('clipped').value).toBe(0);
    expect(bleed.summary.clipped).toBe(false);
    // The same cut circle on a full-bleed sky is still cut (the old ring rule missed it).
    const cutOnSky = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#8cf"/><circle cx="0" cy="50" r="30" fill="#c00"/></svg>',
    );
    expect(cutOnSky.summary.clipped).toBe(true);
    expect(cutOnSky.by('clipped').detail).toMatchObject({ sides: ['left'], touchesEdge: true });
    // A ground strip touches three edges by design: touches the edge, is not cut.
    const ground = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#8cf"/><rect y="75" width="100" height="25" fill="#4a4"/><circle cx="50" cy="50" r="20" fill="#c00"/></svg>',
    );
    expect(ground.summary.clipped).toBe(false);
    expect(ground.by('clipped').detail).toMatchObject({ touchesEdge: true });
  });

  it('a bust drawn up to the bottom edge is reported as a close-up, not flagged (issue 40)', async () => {
    // Shoulders widening to the bottom edge under a head: nothing runs past the frame, so
    // only the close-up reading (src/render/close-up.ts) can tell it from a whole subject.
    const bust = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" fill="#234"/><g><path d="M96 512 C 110 400 180 380 220 370 L 220 300 L 292 300 L 292 370 C 332 380 402 400 416 512 Z" fill="#ccb"/><circle cx="256" cy="220" r="95" fill="#ccb"/><circle cx="290" cy="210" r="10" fill="#000"/></g></svg>',
    );
    expect(bust.summary.clipped).toBe(false);
    expect(bust.by('clipped').detail).toMatchObject({
      cut: 'close_up',
      closeUp: true,
      closeUpShape: 'bust',
    });
  });

  it('a subject of many parts pushed over one edge is clipped; a tiling cut all round the frame is not (issue 25)', async () => {
    // Twelve bands of alternating colour (a temple's tiers, a striped shirt), half out of
    // the frame on the left: twelve pieces, none a quarter of the cut, all on one stretch.
    const bands = Array.from(
      { length: 12 },
      (_, k) =>
        `<rect x="-20" y="${20 + 5 * k}" width="40" height="5" fill="${k % 2 ? '#c33' : '#36a'}"/>`,
    ).join('');
    const subject = await check(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${bands}</svg>`,
    );
    expect(subject.by('clipped').detail).toMatchObject({ pattern: false, sides: ['left'] });
    expect(subject.summary.clipped).toBe(true);
    const tiles: string[] = [];
    for (let y = 0; y < 100; y += 10)
      for (let x = 0; x < 100; x += 10)
        tiles.push(
          `<rect x="${x}" y="${y}" width="10" height="10" fill="hsl(${(x * 7 + y * 13) % 360},60%,55%)"/>`,
        );
    const tiling = await check(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${tiles.join('')}</svg>`,
    );
    expect(tiling.summary.clipped).toBe(false);
  });

  it("ink_coverage is ink against the picture's own ground and flags a near-empty one", async () => {
    const lone = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#36c"/></svg>',
    );
    expect(lone.summary.blank).toBe(false); // far from white, so not "blank"…
    expect(lone.by('ink_coverage')).toMatchObject({ value: 0, flag: true }); // …but empty
    const speck = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#fde"/><circle cx="30" cy="30" r="3" fill="#000"/></svg>',
    );
    expect(speck.by('ink_coverage').flag).toBe(true);
    const drawn = await check(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#36c"/><circle cx="50" cy="50" r="25" fill="#fc0"/></svg>',
    );
    expect(drawn.by('ink_coverage').value).toBeCloseTo(Math.PI / 16, 1);
    expect(drawn.by('ink_coverage').flag).toBe(false);
    expect(drawn.by('ink_coverage').detail).toMatchObject({ againstBackground: 1 });
  });

  it('a render failure is a value: renders 0 with the code, pixel checks unknown', async () => {
    const artifact = await extractArtifact('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>');
    const render = (await pool.render(artifact.svg!)) as RenderResult;
    expect(render.ok).toBe(false);
    const checks = runChecks(artifact, render, 'a cat');
    const summary = summarizeChecks(artifact, render, checks);
    expect(checks.find((c) => c.name === 'renders')).toMatchObject({
      value: 0,
      flag: true,
      detail: { error: 'parse_error' },
    });
    expect(summary).toMatchObject({
      renders: false,
      blank: false,
      ink_coverage: null,
      clipped: null,
    });
  });

  it('no SVG at all: renders 0 with the artifact error', async () => {
    const artifact = await extractArtifact('I cannot draw that.');
    const checks = runChecks(artifact, null);
    expect(checks.find((c) => c.name === 'renders')?.detail).toEqual({ error: 'no_svg' });
    expect(summarizeChecks(artifact, null, checks)).toMatchObject({
      renders: false,
      text_in_image: false,
      clutter: false,
      output_tokens: 5,
      svg_tokens: 0,
    });
  });
});

describe('output_tokens', () => {
  it('reads the configured budget: over it and complete is long, not flagged (issue 40)', async () => {
    const icon = fluentEmoji(1)[0]!.svg;
    const low = await check(icon, undefined, { maxOutputTokens: 50 });
    expect(low.by('output_tokens').flag).toBe(false);
    expect(low.by('output_tokens').detail?.kind).toBe('long');
    expect(low.by('output_tokens').value).toBe(low.artifact.tokens.completion);
    const normal = await check(icon);
    expect(normal.by('output_tokens').flag).toBe(false);
  });
});
