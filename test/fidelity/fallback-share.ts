// How often `auto` (the default renderer) falls back to Chromium: the cost of the fidelity
// goal. Counts chooseRenderer's answer over the checks' labelled set (Fluent Emoji, drawings
// with requested text, repetition, full-bleed grounds, planted hacks), all of Fluent Emoji
// and the feature corpus, next to the rule auto used before (any <text> or var()).
//   node --import tsx test/fidelity/fallback-share.ts
import { chooseRenderer } from '../../src/render/auto.ts';
import { labelledSet } from '../checks/labelled-set.ts';
import { featureCorpus, fluentEmoji } from './reference.ts';

const OLD_RULE =
  /<(?:[\w-]+:)?(?:text|textPath|feTurbulence|feDiffuseLighting|feSpecularLighting|feTile|feDisplacementMap)\b|var\(|filter\s*:\s*(?!url\()[a-z-]+\(/i;

const sets: [string, { name: string; svg: string }[]][] = [
  ['labelled set (test/checks)', labelledSet().map((x) => ({ name: x.family, svg: x.svg }))],
  ['Fluent Emoji (all)', fluentEmoji()],
  ['feature corpus', featureCorpus()],
];
console.log('set | files | auto → Chromium | before (text, var()) → Chromium');
for (const [label, files] of sets) {
  const now = files.filter((f) => chooseRenderer(f.svg) === 'chromium');
  const before = files.filter((f) => OLD_RULE.test(f.svg)).length;
  const pct = (n: number) => `${n} (${((100 * n) / files.length).toFixed(1)}%)`;
  console.log(`${label} | ${files.length} | ${pct(now.length)} | ${pct(before)}`);
  const why = new Map<string, number>();
  for (const f of now) why.set(f.name, (why.get(f.name) ?? 0) + 1);
  if (files.length > 100 && why.size)
    console.log(`  by family: ${[...why].map(([k, v]) => `${k} ${v}`).join(', ')}`);
}
