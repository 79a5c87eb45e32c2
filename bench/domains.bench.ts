// npm run bench:domains [-- --files N --only svg,python,vega-lite,html,latex,mermaid,dot,lilypond,lilypond-compiled,lilypond-warm,smiles]
// Each domain's corpus rendered both ways in one run:
//   pool:  rubrica's renderer — python: a warm sandboxed zygote (one forked child per
//          script); latex: one sandboxed pipeline per file from a preloaded format; dot: one
//          sandboxed pipeline per file; html: the browser room's pooled Chromium page;
//   fresh: the peers' way, unsandboxed — `python3 script.py` (+ savefig) per file, `pdflatex`
//          + `pdftoppm` per file, `dot -Tpng` per file, a fresh Chromium per page;
//          vega-lite: vega-lite's own `vl2svg` in a fresh Node process per file, its SVG drawn
//          by the same SVG render pool (pool: rubrica's warm vega runtime, same SVG pool);
//          svg: `rsvg-convert` (librsvg, the same library sharp uses) per file against the SVG
//          render pool; mermaid: a fresh Chromium per diagram with the same page against the
//          room's pooled page; lilypond: `lilypond --png -dcrop -dno-print-pages` per file as
//          installed (lilypond-compiled: given the compiled Scheme the renderer loads, see
//          src/domains/lilypond/compiled-scheme.ts; both rows the one-shot `pool: false`;
//          lilypond-warm: the same bare way against
//          the warm zygote, the default, one of it), its picture trimmed like the renderer's;
//          smiles: RDKit's
//          draw.py in a fresh `python3` per file (both pools: rubrica's sandboxed one-shot).
// Prints files per CPU-second — user + system of this process, every child it reaped and
// every live process under it (Python, TeX, Chromium, bwrap all included; html: this process
// and the browser's live tree, never reaped children twice) — and the ratio. A pool's
// start-up (starting it and drawing one warm-up file that is not among the measured ones) is
// read apart and printed on its own; "+start-up" is the ratio with it charged to the N files.
// "identical": how many pictures both ways drew pixel-identical (after decoding).
// A benchmark, not a test: nothing is asserted. Issue 12's goal: ≥ 5× for python, latex, html.
// A fresh way that cannot run (tool missing) or draws only part of the files gets no ratio
// ("absent" and the reason), and the bench then exits 1.
// --rounds R alone: the side-by-side run R times, then each ratio's median [min, max].
// --against REF [--rounds R]: each domain's warm pool, this checkout's and REF's (a temporary
// worktree) alternating, the fresh way between them, candidate/REF with a 95 % interval over
// rounds (bench/compare-ref.ts; docs/rendering.md#comparing-against-a-commit).
// --warmup W (default 1): the pool draws W warm-up files before the measured ones. With one,
// a new process's first files still pay V8 compiling node's side (latex: ≈ 12 CPU-ms a file
// of the first eight, issue 36); a pool that serves a training run is past that.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { DomainRenderer } from '../src/domains/types.ts';
import {
  dotCorpus,
  htmlCorpus,
  latexCorpus,
  lilypondCorpus,
  mermaidCorpus,
  pythonCorpus,
  smilesCorpus,
  svgCorpus,
  vegaLiteCorpus,
} from '../test/support/domain-corpus.ts';
import { type CompareRow, checkoutRef, compareRounds, runJsonChild } from './compare-ref.ts';
import { type BaselineRun, baselineProblem, benchExitCode, medianRange } from './compare-stats.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
// --src DIR: the tree whose src/ is measured (default: this checkout); --against REF runs this
// same harness on REF's src/ too, so only the code under test differs between the sides.
const SRC = resolve(arg('src', fileURLToPath(new URL('..', import.meta.url))));
const fromSrc = (p: string) => pathToFileURL(join(SRC, p)).href;
const { launchChromium } = (await import(
  fromSrc('src/browser/launch.ts')
)) as typeof import('../src/browser/launch.ts');
const { createBrowserRoom } = (await import(
  fromSrc('src/browser/room.ts')
)) as typeof import('../src/browser/room.ts');
const { createDotRenderer } = (await import(
  fromSrc('src/domains/dot/renderer.ts')
)) as typeof import('../src/domains/dot/renderer.ts');
const { createHtmlRenderer, HTML_VIEWPORT } = (await import(
  fromSrc('src/domains/html/renderer.ts')
)) as typeof import('../src/domains/html/renderer.ts');
const { createLatexRenderer, latexDocument } = (await import(
  fromSrc('src/domains/latex/renderer.ts')
)) as typeof import('../src/domains/latex/renderer.ts');
const { lilypondCompiledScheme } = (await import(
  fromSrc('src/domains/lilypond/compiled-scheme.ts')
)) as typeof import('../src/domains/lilypond/compiled-scheme.ts');
const { createLilypondRenderer, lilypondDocument } = (await import(
  fromSrc('src/domains/lilypond/renderer.ts')
)) as typeof import('../src/domains/lilypond/renderer.ts');
const { createMermaidRenderer, mermaidPage } = (await import(
  fromSrc('src/domains/mermaid/renderer.ts')
)) as typeof import('../src/domains/mermaid/renderer.ts');
const { pngResult } = (await import(
  fromSrc('src/domains/png.ts')
)) as typeof import('../src/domains/png.ts');
const { createPythonRenderer } = (await import(
  fromSrc('src/domains/python/renderer.ts')
)) as typeof import('../src/domains/python/renderer.ts');
const { createSmilesRenderer } = (await import(
  fromSrc('src/domains/smiles/renderer.ts')
)) as typeof import('../src/domains/smiles/renderer.ts');
const { createVegaLiteRenderer } = (await import(
  fromSrc('src/domains/vega-lite/renderer.ts')
)) as typeof import('../src/domains/vega-lite/renderer.ts');
const { createRenderPool } = (await import(
  fromSrc('src/render/index.ts')
)) as typeof import('../src/render/index.ts');
const N = Number(arg('files', '20'));
const WARMUP = Math.max(1, Number(arg('warmup', '1')));
const ONLY = arg(
  'only',
  'svg,python,vega-lite,html,latex,mermaid,dot,lilypond,lilypond-compiled,lilypond-warm,smiles',
).split(',');

/** CPU seconds of this process plus every child it has reaped (Linux /proc, clock ticks). */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime
  return (u.user + u.system) / 1e6 + children;
}

/**
 * CPU seconds of the live processes under this one (a warm pool's zygote and its reaped
 * per-job children, Chromium and its renderers): read before a pool closes, because the
 * sandbox chain (setpriv → bwrap → init) does not hand its children's times back up.
 */
function liveTreeCpuSeconds(): number {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(f[1]));
      ticks.set(Number(name), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    } catch {
      // gone meanwhile
    }
  }
  let sum = 0;
  for (const [pid, t] of ticks) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        sum += t;
        break;
      }
    }
  }
  return sum / 100;
}

/**
 * Chromium's helper processes (renderers, GPU, zygote) are not reaped in a way that hands
 * their times to us: for html, both ways count this process plus the browser's whole live
 * tree (read while it runs, and just before each browser closes), and nothing from reaped
 * children.
 */
let browserMode = false;
const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
/** CPU so far: this process, its reaped children (not for html), and its live tree. */
const snapshot = () => (browserMode ? selfCpu() : cpuSeconds()) + liveTreeCpuSeconds();

/** Fresh html: each browser's live tree, read just before it closes. */
let browserCpu = 0;
function markBrowserBeforeClose() {
  browserCpu += liveTreeCpuSeconds();
}

interface Way {
  pngs: (Buffer | null)[];
  /** CPU-s of the measured files (a pool: after it started and drew its warm-up file). */
  cpuS: number;
  wallS: number;
  /** A pool's start-up: CPU-s and wall-s from nothing to its warm-up file drawn. */
  startCpuS?: number;
  startWallS?: number;
}

/**
 * A pool's run: start it and draw the warm-up files (--warmup, none of the measured ones),
 * then the measured files; start-up and steady state are read apart, both before the pool
 * closes.
 */
async function measurePool(
  make: () => { r: DomainRenderer; close?: () => Promise<void> },
  warmups: string[],
  corpus: string[],
): Promise<Way> {
  const c0 = snapshot();
  const t0 = performance.now();
  const { r, close } = make();
  for (const warmup of warmups) {
    const w = await r.render(warmup);
    if (!w.ok) process.stderr.write(`  warm-up failure: ${w.error.code}\n`);
  }
  const c1 = snapshot();
  const t1 = performance.now();
  const pngs: (Buffer | null)[] = [];
  for (const code of corpus) {
    const res = await r.render(code);
    pngs.push(res.ok ? res.png : null);
    if (!res.ok)
      process.stderr.write(
        `  pool failure: ${res.error.code}: ${res.error.message.slice(0, 200)}\n`,
      );
  }
  const c2 = snapshot();
  const t2 = performance.now();
  await r.close();
  await close?.();
  return {
    pngs,
    cpuS: c2 - c1,
    wallS: (t2 - t1) / 1000,
    startCpuS: c1 - c0,
    startWallS: (t1 - t0) / 1000,
  };
}

async function measureFresh(run: () => Promise<(Buffer | null)[]>): Promise<Way> {
  const c0 = browserMode ? selfCpu() : cpuSeconds();
  const t0 = performance.now();
  browserCpu = 0;
  const pngs = await run();
  const c1 = (browserMode ? selfCpu() : cpuSeconds()) + browserCpu;
  return { pngs, cpuS: c1 - c0, wallS: (performance.now() - t0) / 1000 };
}

function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): boolean {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: 'ignore',
    env: env ?? process.env,
    timeout: 60_000,
  });
  return r.status === 0;
}

async function freshPython(corpus: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-py-'));
  const out: (Buffer | null)[] = [];
  for (const [i, code] of corpus.entries()) {
    const script = join(dir, `s${i}.py`);
    const png = join(dir, `s${i}.png`);
    writeFileSync(
      script,
      `import matplotlib\nmatplotlib.use('Agg')\n${code}\nimport matplotlib.pyplot as plt\nplt.gcf().savefig(${JSON.stringify(png)}, format='png', dpi=100, facecolor='white')\n`,
    );
    out.push(
      run('/usr/bin/python3', [script], dir, { ...process.env, MPLBACKEND: 'Agg' })
        ? readFileSync(png)
        : null,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

async function freshLatex(corpus: string[]) {
  const out: (Buffer | null)[] = [];
  for (const code of corpus) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tex-'));
    writeFileSync(join(dir, 'doc.tex'), latexDocument(code));
    const ok =
      run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], dir) &&
      run(
        'pdftoppm',
        [
          '-png',
          '-r',
          '150',
          '-f',
          '1',
          '-l',
          '1',
          '-x',
          '0',
          '-y',
          '0',
          '-W',
          '4000',
          '-H',
          '4000',
          '-singlefile',
          'doc.pdf',
          'out',
        ],
        dir,
      );
    if (ok) {
      const r = await pngResult(
        readFileSync(join(dir, 'out.png')),
        performance.now(),
        {},
        { trim: true },
      );
      out.push(r.ok ? r.png : null);
    } else out.push(null);
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function freshDot(corpus: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dot-'));
  const out: (Buffer | null)[] = [];
  for (const [i, code] of corpus.entries()) {
    writeFileSync(join(dir, `g${i}.dot`), code);
    out.push(
      run('dot', ['-Gdpi=96', '-Tpng', '-o', `g${i}.png`, `g${i}.dot`], dir)
        ? readFileSync(join(dir, `g${i}.png`))
        : null,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

async function freshHtml(corpus: string[]) {
  const out: (Buffer | null)[] = [];
  for (const html of corpus) {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: HTML_VIEWPORT, deviceScaleFactor: 1 });
      await page.setContent(html, { waitUntil: 'load' });
      out.push(await page.screenshot({ type: 'png' }));
    } catch {
      out.push(null);
    } finally {
      markBrowserBeforeClose();
      await browser.close();
    }
  }
  return out;
}

/** vl2svg in a fresh Node process per file; the SVG pool's live tree is read before it closes. */
async function freshVegaLite(corpus: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-vl-'));
  const svgPool = createRenderPool({ workers: 1 });
  const out: (Buffer | null)[] = [];
  for (const [i, spec] of corpus.entries()) {
    writeFileSync(join(dir, `c${i}.json`), spec);
    const ok = run(process.execPath, [VL2SVG, `c${i}.json`, `c${i}.svg`], dir);
    const r = ok ? await svgPool.render(readFileSync(join(dir, `c${i}.svg`), 'utf8')) : null;
    out.push(r?.ok ? r.png : null);
  }
  browserCpu += liveTreeCpuSeconds();
  await svgPool.close();
  rmSync(dir, { recursive: true, force: true });
  return out;
}
const VL2SVG = join(process.cwd(), 'node_modules/vega-lite/bin/vl2svg');

async function freshSvg(corpus: string[]) {
  // Without the tool every file "fails": say so instead (Debian librsvg2-bin).
  if (spawnSync('rsvg-convert', ['--version']).error)
    throw new Error('rsvg-convert not installed (Debian librsvg2-bin, scripts/setup-debian.sh)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-svg-'));
  const out: (Buffer | null)[] = [];
  for (const [i, svg] of corpus.entries()) {
    writeFileSync(join(dir, `i${i}.svg`), svg);
    const args = ['-w', '512', '-h', '512', '-a', '-b', 'white', '-o', `i${i}.png`, `i${i}.svg`];
    out.push(run('rsvg-convert', args, dir) ? readFileSync(join(dir, `i${i}.png`)) : null);
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

async function freshMermaid(corpus: string[]) {
  const out: (Buffer | null)[] = [];
  for (const code of corpus) {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.setContent(mermaidPage(code), { waitUntil: 'load' });
      const el = page.locator('#out[data-done]');
      await el.waitFor({ timeout: 60_000 });
      out.push(await el.screenshot({ type: 'png' }));
    } catch {
      out.push(null);
    } finally {
      markBrowserBeforeClose();
      await browser.close();
    }
  }
  return out;
}

/**
 * A bare `lilypond` per file with the renderer's own command line (the cropped picture only),
 * its PNG trimmed like the renderer's, so both ways' pictures compare. `env`: as installed,
 * or with LilyPond's compiled Scheme as the renderer gives it (the `lilypond-compiled` row).
 */
async function freshLilypond(corpus: string[], env: NodeJS.ProcessEnv = process.env) {
  const out: (Buffer | null)[] = [];
  for (const code of corpus) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-ly-'));
    writeFileSync(join(dir, 'score.ly'), lilypondDocument(code));
    const args = [
      '--png',
      '-dcrop',
      '-dno-print-pages',
      '-dresolution=200',
      '-dno-point-and-click',
      '-o',
      'out',
      'score.ly',
    ];
    if (run('lilypond', args, dir, env)) {
      const png = readFileSync(join(dir, 'out.cropped.png'));
      const r = await pngResult(png, performance.now(), {}, { trim: true });
      out.push(r.ok ? r.png : null);
    } else out.push(null);
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const DRAW_PY = join(process.cwd(), 'src/domains/smiles/draw.py');
async function freshSmiles(corpus: string[]) {
  const out: (Buffer | null)[] = [];
  for (const code of corpus) {
    const r = spawnSync('/usr/bin/python3', ['-I', DRAW_PY], { input: code, timeout: 60_000 });
    out.push(r.status === 0 && r.stdout.length ? r.stdout : null);
  }
  return out;
}

async function same(a: Buffer | null, b: Buffer | null): Promise<boolean> {
  if (!a || !b) return false;
  const [x, y] = await Promise.all([
    sharp(a).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true }),
    sharp(b).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true }),
  ]);
  return x.info.width === y.info.width && x.info.height === y.info.height && x.data.equals(y.data);
}

const DOMAINS: Record<
  string,
  {
    corpus: (n: number) => string[];
    pool: () => { r: DomainRenderer; close?: () => Promise<void> };
    fresh: (c: string[]) => Promise<(Buffer | null)[]>;
  }
> = {
  python: {
    corpus: pythonCorpus,
    pool: () => ({ r: createPythonRenderer({ poolSize: 1 }) }),
    fresh: freshPython,
  },
  svg: {
    corpus: svgCorpus,
    pool: () => {
      const svgPool = createRenderPool({ workers: 1 });
      const r: DomainRenderer = {
        async render(code) {
          const x = await svgPool.render(code);
          return x.ok
            ? { ok: true, png: x.png, width: x.width, height: x.height, ms: 0, notes: {} }
            : { ok: false, error: x.error, ms: 0 };
        },
        close: async () => {},
      };
      return { r, close: () => svgPool.close() };
    },
    fresh: freshSvg,
  },
  latex: { corpus: latexCorpus, pool: () => ({ r: createLatexRenderer() }), fresh: freshLatex },
  mermaid: {
    corpus: mermaidCorpus,
    pool: () => {
      const room = createBrowserRoom({ pages: 1 });
      return { r: createMermaidRenderer({ room }), close: () => room.close() };
    },
    fresh: freshMermaid,
  },
  lilypond: {
    corpus: lilypondCorpus,
    pool: () => ({ r: createLilypondRenderer({ pool: false }) }),
    fresh: (c) => freshLilypond(c),
  },
  'lilypond-compiled': {
    corpus: lilypondCorpus,
    pool: () => ({ r: createLilypondRenderer({ pool: false }) }),
    fresh: (c) =>
      freshLilypond(c, {
        ...process.env,
        GUILE_LOAD_COMPILED_PATH: lilypondCompiledScheme() ?? '',
      }),
  },
  'lilypond-warm': {
    corpus: lilypondCorpus,
    pool: () => ({ r: createLilypondRenderer({ pool: true, poolSize: 1 }) }),
    fresh: (c) =>
      freshLilypond(c, {
        ...process.env,
        GUILE_LOAD_COMPILED_PATH: lilypondCompiledScheme() ?? '',
      }),
  },
  smiles: { corpus: smilesCorpus, pool: () => ({ r: createSmilesRenderer() }), fresh: freshSmiles },
  dot: { corpus: dotCorpus, pool: () => ({ r: createDotRenderer() }), fresh: freshDot },
  html: {
    corpus: htmlCorpus,
    pool: () => {
      const room = createBrowserRoom({ pages: 1 });
      return { r: createHtmlRenderer({ room }), close: () => room.close() };
    },
    fresh: freshHtml,
  },
  'vega-lite': {
    corpus: vegaLiteCorpus,
    pool: () => {
      const svgPool = createRenderPool({ workers: 1 });
      return { r: createVegaLiteRenderer({ svgRenderer: svgPool }), close: () => svgPool.close() };
    },
    fresh: freshVegaLite,
  },
};

/** A fresh-process baseline that could not run: the reason, printed in its row. */
async function freshOrError(run: () => Promise<Way>): Promise<Way | { error: string }> {
  try {
    return await run();
  } catch (e) {
    return { error: (e instanceof Error ? e.message : String(e)).split('\n')[0]! };
  }
}

/** `--child-domain NAME` (for --against): the pool's way only, as JSON on stdout. */
async function childDomain(name: string): Promise<void> {
  const d = DOMAINS[name];
  if (!d) throw new Error(`unknown domain ${name}`);
  browserMode = name === 'html' || name === 'mermaid';
  const all = d.corpus(N + WARMUP);
  const pool = await measurePool(d.pool, all.slice(N), all.slice(0, N));
  const ok = pool.pngs.filter(Boolean).length;
  process.stdout.write(`${JSON.stringify({ files: N, ok, cpuS: pool.cpuS, wallS: pool.wallS })}\n`);
}

/** `--against REF`: each domain's warm pool, candidate and REF alternating, the fresh way between. */
async function against(ref: string): Promise<void> {
  const sides = checkoutRef(ref);
  const self = fileURLToPath(import.meta.url);
  const rows: CompareRow[] = ONLY.filter((n) => DOMAINS[n]).map((name) => {
    const d = DOMAINS[name]!;
    return {
      label: `${name} pool, ${N} files`,
      run: async (side) => {
        const args = ['--import', 'tsx', self, '--child-domain', name, '--files', String(N)];
        args.push('--warmup', String(WARMUP));
        args.push('--src', side.dir);
        const m = await runJsonChild<{ files: number; ok: number; cpuS: number; wallS: number }>(
          args,
          side.dir,
          30 * 60_000,
        );
        // A side that drew only part of the files measured something else: no ratio over it.
        if (m.ok < m.files)
          throw new Error(`${name} ${side.name}: ${m.ok}/${m.files} drawn, so no ratio`);
        return m;
      },
      baseline: async () => {
        browserMode = name === 'html' || name === 'mermaid';
        const corpus = d.corpus(N + 1).slice(0, N);
        const fresh = await measureFresh(() => d.fresh(corpus));
        return {
          files: N,
          ok: fresh.pngs.filter(Boolean).length,
          cpuS: fresh.cpuS,
          wallS: fresh.wallS,
        };
      },
    };
  });
  try {
    const { baselines } = await compareRounds(rows, sides, Number(arg('rounds', '3')));
    process.exitCode = benchExitCode(baselines);
  } finally {
    sides.cleanup();
  }
}

const CHILD_DOMAIN = arg('child-domain', '');
const AGAINST = arg('against', '');
if (CHILD_DOMAIN) await childDomain(CHILD_DOMAIN);
else if (AGAINST) await against(AGAINST);
else await sideBySideRounds(Number(arg('rounds', '1')));

/**
 * `--rounds R` without `--against`: the side-by-side run R times (each domain's pool beside its
 * fresh way every time), then each domain's ratio as median [min, max] over the rounds. It used
 * to run once whatever R said, so a reading asked for over three rounds was one.
 */
async function sideBySideRounds(rounds: number): Promise<void> {
  if (!(Number.isInteger(rounds) && rounds >= 1))
    throw new Error(`--rounds ${rounds}: not a count`);
  const ratios = new Map<string, number[]>();
  const baselines: BaselineRun[] = [];
  for (let r = 1; r <= rounds; r++) {
    if (rounds > 1) console.log(`round ${r} of ${rounds}`);
    const run = await sideBySide();
    baselines.push(...run.baselines);
    for (const [name, x] of run.ratios) ratios.set(name, [...(ratios.get(name) ?? []), x]);
  }
  if (rounds > 1) {
    console.log(`\nper core against a fresh process, ${rounds} rounds: median [min, max]`);
    for (const [name, xs] of ratios) console.log(`${name.padEnd(14)} ${medianRange(xs)}`);
  }
  process.exitCode = benchExitCode(baselines);
}

/** One side-by-side run: each domain's pool and its fresh way once, in one table. */
async function sideBySide(): Promise<{ baselines: BaselineRun[]; ratios: Map<string, number> }> {
  const rows: string[] = [];
  const baselines: BaselineRun[] = [];
  // Each domain's ratio this run, where its fresh baseline drew every file.
  const ratios = new Map<string, number>();
  for (const name of ONLY) {
    const d = DOMAINS[name];
    if (!d) continue;
    const all = d.corpus(N + WARMUP);
    const corpus = all.slice(0, N);
    process.stderr.write(`${name}: ${corpus.length} files…\n`);
    browserMode = name === 'html' || name === 'mermaid';
    const pool = await measurePool(d.pool, all.slice(N), corpus);
    const freshRun = await freshOrError(() => measureFresh(() => d.fresh(corpus)));
    const fresh: Way =
      'error' in freshRun ? { pngs: corpus.map(() => null), cpuS: 0, wallS: 0 } : freshRun;
    let identical = 0;
    for (let i = 0; i < corpus.length; i++)
      if (await same(pool.pngs[i]!, fresh.pngs[i]!)) identical++;
    const okPool = pool.pngs.filter(Boolean).length;
    const okFresh = fresh.pngs.filter(Boolean).length;
    const base: BaselineRun = {
      files: corpus.length,
      ok: okFresh,
      ...('error' in freshRun ? { error: freshRun.error } : {}),
    };
    baselines.push(base);
    const problem = baselineProblem(base);
    const rate = (ok: number, cpuS: number) => ok / cpuS;
    const freshRate = rate(okFresh, fresh.cpuS);
    // With start-up: the pool's start (and its warm-up files) charged to these N files.
    const withStart = rate(okPool + WARMUP, pool.cpuS + pool.startCpuS!);
    // No ratio over a failed baseline (it printed Infinity× when rsvg-convert was missing).
    const ratio = (x: number) => (problem ? 'absent' : `${x.toFixed(2)}×`);
    if (!problem) ratios.set(name, rate(okPool, pool.cpuS) / freshRate);
    rows.push(
      [
        name.padEnd(9),
        `${okPool}/${corpus.length}`.padStart(6),
        rate(okPool, pool.cpuS).toFixed(2).padStart(9),
        `${okFresh}/${corpus.length}`.padStart(6),
        (problem ? '-' : freshRate.toFixed(2)).padStart(9),
        ratio(rate(okPool, pool.cpuS) / freshRate).padStart(7),
        ratio(withStart / freshRate).padStart(9),
        `${identical}/${corpus.length}`.padStart(9),
        `${pool.startCpuS!.toFixed(1)}/${pool.startWallS!.toFixed(1)}`.padStart(10),
        `${pool.cpuS.toFixed(1)}/${fresh.cpuS.toFixed(1)}`.padStart(11),
        `${pool.wallS.toFixed(1)}/${fresh.wallS.toFixed(1)}`.padStart(11),
        problem ? ` (fresh baseline failed: ${problem})` : '',
      ].join(' '),
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  console.log(
    'domain  pool-ok pool f/cpu-s fresh-ok fresh f/cpu-s ratio +start-up identical start cpu/wall cpu-s p/f wall-s p/f',
  );
  for (const r of rows) console.log(r);
  return { baselines, ratios };
}
