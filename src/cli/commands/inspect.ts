// `rubrica inspect`: one completion → extracted SVG (or another domain's code), reasoning, DwT stages, tokens, render
// and deterministic checks.
//   rubrica inspect <completion-file|-> [--prompt TEXT] [--json] [--size N]
//                   [--background COLOR] [--out PNG] [--timeout MS] [--domain ID|auto]
//                   [--html-full-page] [--assets FILE.json] [--data-root DIR]
// A completion with no SVG, a truncated one or an unrenderable one is a result (exit 0);
// only an unreadable file (1) or bad flags (2) exit non-zero.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { DOMAIN_IDS } from '../../core/domain-ids.ts';
import { resolveAssets } from '../../domains/assets.ts';
import { lazyDomainRenderers } from '../../domains/lazy.ts';
import { inspectCompletion, inspectionToJson } from '../../inspect/inspect.ts';
import type { Inspection } from '../../inspect/types.ts';
// Light imports only: sharp loads in the render worker, not here (start-up time).
import {
  DEFAULT_BACKGROUND as DEFAULT_RENDER_BACKGROUND,
  DEFAULT_SIZE as DEFAULT_RENDER_SIZE,
} from '../../render/defaults.ts';
import { createRenderPool } from '../../render/pool.ts';
import { addDataRootFlag, assetsFileFlag, dataRootFlag } from '../assets-flag.ts';
import { domainFlag } from '../domain-flag.ts';
import { addHtmlFlag, htmlFlagOptions } from '../html-flag.ts';
import { inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { addRendererFlag, rendererPoolOptions } from '../renderer-flag.ts';
import { UsageError } from '../usage-error.ts';

interface Flags {
  renderer?: string;
  prompt?: string;
  json?: boolean;
  size: string;
  background: string;
  out?: string;
  timeout?: string;
  domain?: string;
  htmlFullPage?: boolean;
  assets?: string;
  dataRoot?: string;
}

function intFlag(name: string, v: string | undefined, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`--${name} must be an integer from 1 to ${max}, got "${v}"`);
  }
  return n;
}

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const yesNo = (flag: boolean | undefined) => (flag ? 'YES' : 'no');

function summaryText(file: string, ins: Inspection): string {
  const { artifact: a, render: r, summary: s } = ins;
  const by = new Map(ins.checks.map((c) => [c.name, c]));
  const lines = [`inspect ${file === '-' ? '(stdin)' : file}`];
  const t = a.tokens;
  // tokens.svg counts the answer's code whatever the domain; only SVG calls it "svg".
  const codeLabel = a.domain && a.domain !== 'svg' ? 'code' : 'svg';
  const tokens = `${t.completion} tokens (${codeLabel} ${t.svg}, reasoning ${t.reasoning}${t.estimated ? ', estimated' : ''})`;
  lines.push(
    a.found
      ? `  artifact  found, ${a.source}; ${tokens}`
      : `  artifact  not found: ${a.error?.code}: ${a.error?.message}; ${tokens}`,
  );
  const d = a.dwt;
  lines.push(
    `  dwt       ${d.stages.length}/6 stages${d.stages.length ? ` (${d.stages.join(', ')})` : ''}; ${d.valid ? 'valid' : 'not valid'}`,
  );
  if (a.domain && a.domain !== 'svg') lines.push(`  domain    ${a.domain}`);
  if (r === null) lines.push('  render    skipped (nothing to render)');
  else if (r.ok) lines.push(`  render    ok, ${r.width}×${r.height} in ${Math.round(r.ms)} ms`);
  else lines.push(`  render    failed: ${r.error.code}: ${r.error.message}`);
  const v = (name: string) => by.get(name)?.value ?? 0;
  if (r?.ok) {
    lines.push(
      `  pixels    blank ${yesNo(s.blank)} (mse ${v('blank').toExponential(2)}), ink ${pct(v('ink_coverage'))} of the ground${by.get('ink_coverage')?.flag ? ' (near-empty)' : ''}, clipped ${yesNo(s.clipped ?? false)} (frame cut ${pct(v('clipped'))})`,
    );
  }
  const glyphs = by.get('missing_glyphs');
  if (glyphs?.flag) {
    // Never show a judge boxes silently: say which characters no pinned font draws.
    const chars = ((glyphs.detail?.chars ?? []) as { code: string; script: string }[]).map(
      (c) => `${c.code} ${c.script}`,
    );
    lines.push(`  glyphs    ${glyphs.value} characters drawn as boxes (${chars.join(', ')})`);
  }
  const matched = (by.get('text_in_image')?.detail?.matched as string[] | undefined) ?? [];
  lines.push(
    `  hacks     text_in_image ${yesNo(s.text_in_image)} (${matched.length ? matched.join(', ') : 'no prompt words written'}${by.get('text_in_image')?.detail?.textAsked ? '; the prompt asks for text' : ''}${by.get('text_in_image')?.flag === undefined ? '; no prompt/code to compare' : ''}), clutter ${yesNo(s.clutter)} (${v('clutter').toFixed(2)} of threshold)`,
  );
  lines.push(
    `  length    output_tokens ${s.output_tokens}${by.get('output_tokens')?.flag ? ` (${String(by.get('output_tokens')?.detail?.kind ?? 'flagged')})` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

async function run(file: string, f: Flags, setExit: (code: number) => void): Promise<void> {
  if (file !== '-') inputFile('<completion>', file);
  const size = intFlag('size', f.size, 4096)!;
  const timeoutMs = intFlag('timeout', f.timeout, 600_000);
  // The default needs no check; another colour is checked by the renderer's own parser.
  const badBackground = async (colour: string) => {
    if (colour === DEFAULT_RENDER_BACKGROUND) return false;
    const { isRenderBackground } = await import('../../render/rasterize.ts');
    return !(await isRenderBackground(colour));
  };
  if (await badBackground(f.background)) {
    throw new UsageError(`--background: not a colour: "${f.background}"`);
  }
  let completion: string;
  try {
    completion = await readInput(file);
  } catch (err) {
    process.stderr.write(`rubrica: cannot read ${file}: ${(err as Error).message}\n`);
    setExit(1);
    return;
  }
  const domain = domainFlag(f.domain);
  // The task's data files: a bad one (escaping the data root, missing, over the limits) is one
  // line with its stable code, exit 2 — nothing is rendered without the data it needs.
  const dataRoot = dataRootFlag(f.dataRoot);
  const given = await assetsFileFlag(f.assets);
  const resolved = await resolveAssets(given, { dataRoot: dataRoot ?? null });
  if (!resolved.ok) {
    throw new UsageError(`--assets: ${resolved.error.code}: ${resolved.error.message}`);
  }
  const pool = createRenderPool({ workers: 1, timeoutMs, ...rendererPoolOptions(f) });
  // Other domains' renderers start only if the completion is not SVG.
  const domains = lazyDomainRenderers({
    svgRenderer: pool,
    svgOptions: { size, background: f.background },
    ...htmlFlagOptions(f),
  });
  try {
    const ins = await inspectCompletion(completion, {
      renderer: pool,
      prompt: f.prompt,
      render: { size, background: f.background },
      domain,
      domains,
      ...(given ? { assets: resolved.assets } : {}),
    });
    if (f.out && ins.render?.ok) await writeFile(f.out, ins.render.png);
    process.stdout.write(
      f.json ? `${JSON.stringify(inspectionToJson(ins))}\n` : summaryText(file, ins),
    );
  } finally {
    await domains.close();
    await pool.close({ waitForExit: false }); // the command exits next (exitWhenDone)
  }
}

export const register: RegisterCommand = (program: Command, setExit) => {
  const cmd = program
    .command('inspect')
    .description(
      'extract the SVG from a model completion, render it and run the deterministic checks',
    )
    .argument('<completion>', 'completion text file, or - for standard input')
    .option('-p, --prompt <text>', 'the prompt (needed for text_in_image)')
    .option('--json', 'print one JSON object')
    .option('-s, --size <n>', 'square render side in px', String(DEFAULT_RENDER_SIZE))
    .option('-b, --background <color>', 'CSS colour under the drawing', DEFAULT_RENDER_BACKGROUND)
    .option('-o, --out <png>', 'also write the rendered PNG here')
    .option('--timeout <ms>', 'wall-clock limit for the render (default 10000)')
    .option('--domain <id>', `the completion's domain: auto (default) or ${DOMAIN_IDS.join(', ')}`)
    .option(
      '--assets <file>',
      'JSON object of the task\'s data files (name → content or { "path": … }), readable by the code under their names',
    );
  addDataRootFlag(cmd);
  addRendererFlag(addHtmlFlag(cmd)).action(async (file: string, flags: Flags) =>
    run(file, flags, setExit),
  );
};
