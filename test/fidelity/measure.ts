// Prints fidelity to Chromium (and to CairoSVG) per renderer, per file of the feature
// corpus and summarised over Fluent Emoji and (with --labelled N) N drawings spread over the
// checks' labelled set (requested text, signage, repetition, grounds, planted hacks):
//   node --import tsx test/fidelity/measure.ts [--emoji N] [--labelled N] [--workers N]
// The figures in docs/rendering.md come from this script.
import { createRenderPool } from '../../src/render/index.ts';
import type { RendererName } from '../../src/render/types.ts';
import { labelledSet } from '../checks/labelled-set.ts';
import {
  diffs,
  featureCorpus,
  fluentEmoji,
  type Pictures,
  renderAll,
  renderAllCairo,
  summarise,
} from './reference.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const EMOJI = Number(arg('emoji', '300'));
const LABELLED = Number(arg('labelled', '0'));
const pool = createRenderPool({ workers: Number(arg('workers', '2')), timeoutMs: 60_000 });
const RENDERERS: RendererName[] = ['librsvg', 'resvg', 'auto'];
const f = (x: number) => (Number.isNaN(x) ? '  —  ' : x.toFixed(2).padStart(5));

const labelled = labelledSet();
const step = LABELLED > 0 ? Math.max(1, Math.ceil(labelled.length / LABELLED)) : 0;
const sets = [
  ['feature corpus', featureCorpus()],
  [`Fluent Emoji (${EMOJI})`, fluentEmoji(EMOJI)],
  ...(LABELLED > 0
    ? [
        [
          `checks labelled set (${LABELLED})`,
          labelled
            .filter((_, i) => i % step === 0)
            .slice(0, LABELLED)
            .map((x) => ({ name: `${x.family} ${x.id}`, svg: x.svg })),
        ] as const,
      ]
    : []),
] as const;
for (const [label, files] of sets.filter(
  ([l]) => !process.argv.includes('--emoji-only') || l !== 'feature corpus',
)) {
  const chrome = await renderAll(pool, files, 'chromium');
  const pics: Record<string, Pictures> = {};
  for (const r of RENDERERS) pics[r] = await renderAll(pool, files, r);
  pics.cairosvg = await renderAllCairo(files);
  const d: Record<string, number[]> = {};
  for (const k of Object.keys(pics)) d[k] = diffs(pics[k]!, chrome);
  const rsvgVsCairo = diffs(pics.librsvg!, pics.cairosvg!);
  console.log(`\n## ${label}: mean |Δ| to Chromium (0–255)`);
  if (files.length <= 100) {
    console.log(`file | ${Object.keys(d).join(' | ')} | librsvg vs CairoSVG`);
    for (const [i, file] of files.entries()) {
      const cells = Object.keys(d).map((k) => f(d[k]![i]!));
      console.log(`${file.name} | ${cells.join(' | ')} | ${f(rsvgVsCairo[i]!)}`);
    }
  }
  console.log('renderer | files | rendered | ≤1 | >2 | >10 | median | p90 | max');
  for (const k of Object.keys(d)) {
    const s = summarise(d[k]!);
    console.log(
      `${k} | ${s.files} | ${s.rendered} | ${s.within1} (${((100 * s.within1) / s.files).toFixed(1)}%) | ${s.over2} | ${s.over10} | ${f(s.median)} | ${f(s.p90)} | ${f(s.max)}`,
    );
  }
  if (files.length > 100) {
    for (const k of ['librsvg', 'auto']) {
      const over = files
        .map((x, i) => [x.name, d[k]![i]!] as const)
        .filter(([, v]) => v > 1)
        .map(([n, v]) => `${n} ${v.toFixed(2)}`);
      if (over.length) console.log(`${k} over 1/255: ${over.join(', ')}`);
    }
  }
  const chromeFailed = files.filter((_, i) => chrome[i] === null).map((x) => x.name);
  if (chromeFailed.length) console.log(`Chromium did not draw: ${chromeFailed.join(', ')}`);
}
await pool.close();
