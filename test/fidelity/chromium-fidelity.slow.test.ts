// Chromium is the reference picture (issue 11). These bounds are the measured state
// (docs/rendering.md, `node --import tsx test/fidelity/measure.ts`); they fail when a
// renderer drifts from the browser:
//  - feature corpus, the default (`auto`: librsvg, Chromium for the few features librsvg
//    draws differently): within 1/255 on ≥ 95% of the files and none over 10/255;
//  - Fluent Emoji: the default within 1/255 of Chromium on ≥ 95% of the icons;
//  - feature corpus, librsvg alone: nothing new over 10/255 beyond the documented gaps,
//    plain text and document-wide var() within 1/255 (pinned unhinted fonts, var()
//    substitution), and text on paths drawn by every renderer rubrica routes it to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, DEFAULT_RENDERER, type RenderPool } from '../../src/render/index.ts';
import {
  diffs,
  featureCorpus,
  fluentEmoji,
  type Pictures,
  renderAll,
  summarise,
} from './reference.ts';

// librsvg's documented gaps (docs/rendering.md): feTile phase, spot light cone.
const LIBRSVG_OVER_10 = ['filter-feSpotLight', 'filter-feTile'];
// Drawn by librsvg within 1/255 (unhinted fonts, var() substitution, single CSS filter
// functions), so `auto` keeps them off Chromium.
const LIBRSVG_NOW_CLOSE = [
  'text-default',
  'text-families',
  'text-stroke-css',
  'css-variables',
  'css-filter-single',
];

let pool: RenderPool;
const corpus = featureCorpus();
let chrome: Pictures;

beforeAll(async () => {
  pool = createRenderPool({ workers: 2, timeoutMs: 60_000 });
  chrome = await renderAll(pool, corpus, 'chromium');
}, 300_000);
afterAll(async () => {
  await pool?.close();
});

describe('fidelity to Chromium', () => {
  it('Chromium draws every file of the feature corpus', () => {
    const missing = corpus.filter((_, i) => chrome[i] === null).map((f) => f.name);
    expect(missing).toEqual([]);
  });

  it('draws the files browsers draw and rubrica used to refuse (issue 25), as Chromium does', async () => {
    // A <use> of its own ancestor (browsers skip that <use>), and an id shared by a gradient
    // and a <g> (browsers resolve it to the first): both were refused as too_large.
    const names = ['use-ancestor', 'id-shared-gradient-group'];
    const files = corpus.filter((f) => names.includes(f.name));
    expect(files.map((f) => f.name).sort()).toEqual([...names].sort());
    const ref = files.map((f) => chrome[corpus.indexOf(f)]!);
    const d = diffs(await renderAll(pool, files, DEFAULT_RENDERER), ref);
    expect(
      d.every((x) => x <= 1),
      `mean differences ${d.join(', ')}`,
    ).toBe(true);
  });

  it('the default is auto', () => {
    expect(DEFAULT_RENDERER).toBe('auto');
  });

  it('the default: ≤ 1/255 on ≥ 95% of the feature corpus, none over 10/255', async () => {
    const d = diffs(await renderAll(pool, corpus, DEFAULT_RENDERER), chrome);
    const s = summarise(d);
    const over1 = corpus.filter((_, i) => !(d[i]! <= 1)).map((f) => f.name);
    expect(s.rendered).toBe(corpus.length);
    expect(s.within1 / s.files, `over 1/255: ${over1.join(', ')}`).toBeGreaterThanOrEqual(0.95);
    expect(s.over10).toBe(0);
  }, 300_000);

  it('librsvg: over 10/255 only on its documented gaps', async () => {
    const d = diffs(await renderAll(pool, corpus, 'librsvg'), chrome);
    const over10 = corpus.filter((_, i) => d[i]! > 10).map((f) => f.name);
    expect(over10.filter((n) => !LIBRSVG_OVER_10.includes(n))).toEqual([]);
    expect(summarise(d).within1).toBeGreaterThanOrEqual(42); // measured 42 of 54
    const far = LIBRSVG_NOW_CLOSE.filter((n) => !(d[corpus.findIndex((f) => f.name === n)]! <= 1));
    expect(far).toEqual([]);
  }, 300_000);

  it('text on a path is drawn (auto and resvg; librsvg draws none)', async () => {
    const files = corpus.filter((f) => f.name.startsWith('textpath'));
    expect(files.length).toBe(2);
    for (const renderer of ['auto', 'resvg'] as const) {
      for (const f of files) {
        const r = await pool.render(f.svg, { renderer });
        expect(r.ok && r.pixels.inkCoverage, `${renderer} ${f.name}`).toBeGreaterThan(0.01);
      }
    }
  }, 300_000);

  it('Fluent Emoji: the default within 1/255 on ≥ 95% of 100 icons, worst ≤ 1/255', async () => {
    const icons = fluentEmoji(100);
    const ref = await renderAll(pool, icons, 'chromium');
    const s = summarise(diffs(await renderAll(pool, icons, DEFAULT_RENDERER), ref));
    expect(s.rendered).toBe(100);
    expect(s.within1).toBeGreaterThanOrEqual(95);
    expect(s.max).toBeLessThanOrEqual(1); // measured 0.24 on 3,174
  }, 600_000);
});
