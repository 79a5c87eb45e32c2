// The scratch directory a documented example runs in, holding the files the docs name, as a
// reader's project would: prompts.jsonl, rollouts.jsonl and rubrics.jsonl (two of the bundled
// example prompts, their rollouts, RULER rubrics for them), completion.txt, icon.svg, a.svg,
// b.svg, c.svg, icon.png, system.txt, val-rubrics.jsonl, base.jsonl and tuned.jsonl; links to
// the clone's bin/, examples/ and node_modules/ (so `node bin/rubrica.js` and `import 'zod'`
// work as in a clone); and a tsconfig.json whose paths map `rubrica` and its entry points to
// src/ (compile-blocks.ts's ENTRY_SOURCES), which tsx honours when it runs a block.
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { rulerRubric } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { ENTRY_SOURCES } from './compile-blocks.ts';

const PROMPT_IDS = new Set(['p01', 'p02']);

const jsonl = (rows: unknown[]): string => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
const readJsonl = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A fresh scratch directory with the example files. */
export async function makeWorkdir(root: string, tag: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `rubrica-docs-${tag}-`));
  const prompts = readJsonl(join(root, 'examples', 'prompts.jsonl')).filter((p) =>
    PROMPT_IDS.has(String(p.id)),
  );
  const rollouts = readJsonl(join(root, 'examples', 'rollouts.jsonl')).filter((r) =>
    PROMPT_IDS.has(String(r.prompt_id)),
  );
  const rubrics = prompts.map((p) => rulerRubric(String(p.id), String(p.prompt)));
  writeFileSync(join(dir, 'prompts.jsonl'), jsonl(prompts));
  writeFileSync(join(dir, 'rollouts.jsonl'), jsonl(rollouts));
  writeFileSync(join(dir, 'base.jsonl'), jsonl(rollouts));
  writeFileSync(join(dir, 'tuned.jsonl'), jsonl(rollouts.slice().reverse()));
  writeFileSync(join(dir, 'rubrics.jsonl'), jsonl(rubrics));
  writeFileSync(join(dir, 'val-rubrics.jsonl'), jsonl(rubrics));
  writeFileSync(join(dir, 'completion.txt'), String(rollouts[0]?.completion));
  writeFileSync(join(dir, 'system.txt'), 'Answer with one SVG in a ```svg block.\n');
  const icons = fluentEmoji(4);
  for (const [i, name] of ['icon', 'a', 'b', 'c'].entries()) {
    writeFileSync(join(dir, `${name}.svg`), icons[i]?.svg ?? '');
  }
  await sharp(Buffer.from(icons[0]?.svg ?? ''))
    .png()
    .toFile(join(dir, 'icon.png'));
  for (const link of ['bin', 'examples', 'node_modules']) {
    symlinkSync(join(root, link), join(dir, link));
  }
  const paths = Object.fromEntries(
    Object.entries(ENTRY_SOURCES).map(([spec, file]) => [spec, [join(root, file)]]),
  );
  const tsconfig = {
    compilerOptions: {
      target: 'ES2023',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noEmit: true,
      baseUrl: '.',
      paths,
    },
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(dir, 'package.json'), '{"type":"module","private":true}\n');
  return dir;
}
