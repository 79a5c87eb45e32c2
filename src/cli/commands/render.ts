// `rubrica render`: SVG file(s) → PNG file(s) through the isolated render pool.
//   rubrica render <file|-> --out <png> [--size N] [--background COLOR] [--json]
//   rubrica render a.svg b.svg … --out-dir DIR [--json]
//   rubrica render --domain python a.py b.py … --out-dir DIR   (docs/domains.md)
//   rubrica render --domain html page.html --out p.png [--html-full-page]
// Exit 0 when every input rendered, 1 when any could not be, 2 for usage errors.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { DOMAIN_IDS } from '../../core/domain-ids.ts';
import {
  createRenderPool,
  DEFAULT_RENDER_BACKGROUND,
  DEFAULT_RENDER_SIZE,
  type FileRenderReport,
  isRenderBackground,
  renderFiles,
} from '../../render/index.ts';
import { domainFlag } from '../domain-flag.ts';
import { addHtmlFlag, htmlFlagOptions } from '../html-flag.ts';
import { inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { addRendererFlag, rendererPoolOptions } from '../renderer-flag.ts';
import { UsageError } from '../usage-error.ts';

interface Flags {
  out?: string;
  outDir?: string;
  size: string;
  background: string;
  json?: boolean;
  timeout?: string;
  workers?: string;
  repair?: boolean;
  renderer?: string;
  domain?: string;
  htmlFullPage?: boolean;
}

function positiveInt(name: string, v: string | undefined, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`--${name} must be an integer from 1 to ${max}, got "${v}"`);
  }
  return n;
}

function jsonLine(r: FileRenderReport): string {
  const res = r.result;
  if (!res.ok) {
    const code = 'code' in res ? res.code : undefined;
    return JSON.stringify({
      input: r.input,
      ok: false,
      error: res.error,
      ms: res.ms,
      svg_stats: code,
    });
  }
  return JSON.stringify({
    input: r.input,
    ok: true,
    out: r.out,
    width: res.width,
    height: res.height,
    ms: res.ms,
    png_bytes: res.png.length,
    pixels: res.pixels,
    svg_stats: res.code,
  });
}

function humanLine(r: FileRenderReport): string {
  const res = r.result;
  if (!res.ok) return `✗ ${r.input}: ${res.error.code}: ${res.error.message}`;
  return `✓ ${r.input} → ${r.out ?? '(not written)'} ${res.width}×${res.height} ${res.ms} ms`;
}

async function run(inputs: string[], f: Flags, setExit: (code: number) => void): Promise<void> {
  if (inputs.length === 0) throw new UsageError('give at least one SVG file (or - for stdin)');
  if (f.out && f.outDir) throw new UsageError('use either --out or --out-dir, not both');
  if (f.out && inputs.length > 1) throw new UsageError('--out takes one input; use --out-dir');
  if (!f.out && !f.outDir && !f.json)
    throw new UsageError('say where to write: --out or --out-dir');
  if (inputs.filter((i) => i === '-').length > 1)
    throw new UsageError('stdin (-) can be read once');
  // Every input exists and is readable before any render starts (a file that vanishes
  // mid-batch is still a read_error result, and the batch goes on).
  for (const i of inputs) if (i !== '-') inputFile('<files...>', i);
  if (f.outDir && existsSync(f.outDir) && !statSync(f.outDir).isDirectory())
    throw new UsageError(
      `--out-dir ${f.outDir} is a file; give a folder (it is created if missing)`,
    );
  const size = positiveInt('size', f.size, 4096)!;
  const timeoutMs = positiveInt('timeout', f.timeout, 600_000);
  const workers = positiveInt('workers', f.workers, 256);
  if (!(await isRenderBackground(f.background))) {
    throw new UsageError(`--background: not a colour: "${f.background}"`);
  }

  const domain = domainFlag(f.domain);
  const pool = createRenderPool({
    workers: workers ?? Math.min(availableParallelism(), inputs.length),
    timeoutMs,
    ...rendererPoolOptions(f),
  });
  // Another domain's files go through its sandboxed renderer (loaded only when asked for).
  const renderer =
    domain && domain !== 'auto' && domain !== 'svg'
      ? (await import('../../domains/as-renderer.ts')).domainFileRenderer(
          (await import('../../domains/renderers.ts')).createDomainRenderers({
            svgRenderer: pool,
            ...(timeoutMs ? { timeoutMs } : {}),
            ...htmlFlagOptions(f),
          }),
          domain,
        )
      : pool;
  try {
    const reports = await renderFiles(
      inputs,
      {
        renderer,
        ...(renderer !== pool ? { concurrency: 2 } : {}),
        outDir: f.outDir ?? null,
        outFile: f.out,
        render: { size, background: f.background, repair: f.repair === true },
      },
      (r) => {
        if (f.json) process.stdout.write(`${jsonLine(r)}\n`);
        else if (!r.result.ok || inputs.length > 1) process.stdout.write(`${humanLine(r)}\n`);
      },
    );
    if (reports.some((r) => !r.result.ok)) setExit(1);
  } finally {
    if (renderer !== pool) await renderer.close();
    await pool.close({ waitForExit: false }); // the command exits next (exitWhenDone)
  }
}

export const register: RegisterCommand = (program: Command, setExit) => {
  const cmd = program
    .command('render')
    .description('render SVG file(s) to PNG in isolated workers (512×512 on white by default)')
    .argument('<files...>', 'SVG files, or - for standard input')
    .option('-o, --out <png>', 'PNG to write (one input)')
    .option('-d, --out-dir <dir>', 'directory for one <name>.png per input')
    .option('-s, --size <n>', 'square output side in px', String(DEFAULT_RENDER_SIZE))
    .option('-b, --background <color>', 'CSS colour under the drawing', DEFAULT_RENDER_BACKGROUND)
    .option('--json', 'print one JSON line per input')
    .option('--timeout <ms>', 'wall-clock limit per render (default 10000)')
    .option('--workers <n>', 'worker processes (default: cores)')
    .option('--repair', 'declare a missing xlink namespace instead of refusing the file')
    .option(
      '--domain <id>',
      `the files' domain: svg (default) or ${DOMAIN_IDS.filter((d) => d !== 'svg').join(', ')}`,
    );
  addRendererFlag(addHtmlFlag(cmd)).action(async (files: string[], flags: Flags) =>
    run(files, flags, setExit),
  );
};
