// The wider survey of docs/artifact-and-checks.md: how often each check flags real drawings
// it was not tuned on. Every 4th file (sorted by path) of Debian's openclipart-svg package
// among those under 60,000 bytes, under the prompt "a drawing", through the same pipeline as
// the labelled set. Unlabelled: a flag rate, not a false-positive rate.
//   apt-get install openclipart-svg && node --import tsx test/checks/survey.ts [--list clipped]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate } from './evaluate.ts';

const ROOT = '/usr/share/openclipart/svg';

function svgFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) svgFiles(p, out);
    else if (e.name.endsWith('.svg')) out.push(p);
  }
  return out;
}

const files = svgFiles(ROOT)
  .sort()
  .filter((f) => statSync(f).size < 60_000);
const items = files
  .filter((_, i) => i % 4 === 0)
  .map((f) => ({
    id: f.slice(ROOT.length + 1),
    family: 'survey',
    prompt: 'a drawing',
    svg: readFileSync(f, 'utf8').replace(/^\uFEFF/, ''),
  }));
const outcomes = await evaluate(items);
const rendered = outcomes.filter((o) => o.checks.find((c) => c.name === 'renders')?.value === 1);
console.log(
  `survey: ${items.length} drawings (every 4th of ${files.length} files under 60,000 bytes), ${rendered.length} rendered`,
);
for (const flag of ['clipped', 'ink_coverage', 'clutter', 'text_in_image']) {
  const n = rendered.filter((o) => o.flags.has(flag)).length;
  console.log(
    `${flag.padEnd(14)} ${n}/${rendered.length} (${((100 * n) / rendered.length).toFixed(1)}%)`,
  );
}
const list = process.argv.indexOf('--list');
if (list > 0) {
  const flag = process.argv[list + 1] ?? 'clipped';
  for (const o of rendered) if (o.flags.has(flag)) console.log(`  ${o.item.id}`);
}
