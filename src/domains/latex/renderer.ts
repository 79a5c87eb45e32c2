// The latex domain: pdflatex (Debian texlive) inside the sandbox with shell escape off and
// kpathsea's paranoid file access (openin_any/openout_any = p: no absolute paths, no parent
// directories, no dot files), then pdftoppm → PPM, cropped to the drawing. A bare TikZ
// picture or pgfplots axis is wrapped in a standalone document. The task's data files
// (`assets`) are read-only files in the job's directory, so `\addplot table {data.csv}`,
// `\input{part.tex}` and `\includegraphics{logo.png}` find them by name; paranoid mode
// keeps every other path (absolute, `..`, hidden) out of reach.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import { runSandboxed } from '../sandbox/run.ts';
import type { DomainRenderer } from '../types.ts';

export interface LatexRendererOptions {
  timeoutMs?: number;
  /** Rasterising resolution (default 150 dpi). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
  /** false: never build the preloaded format (every file from the stock pdflatex format). */
  format?: boolean;
}

export const LATEX_PREAMBLE = String.raw`\documentclass[border=6pt]{standalone}
\usepackage{tikz}
\usepackage{pgfplots}
\pgfplotsset{compat=1.18}
\usetikzlibrary{arrows.meta,positioning,shapes,calc,decorations.pathreplacing}
`;

/** A full document is used as is; anything else is the body of a standalone page. */
export function latexDocument(code: string): string {
  if (/\\documentclass\b/.test(code)) return code;
  return `${LATEX_PREAMBLE}\\begin{document}\n${code}\n\\end{document}\n`;
}

/** Largest side of the rasterised page (pixels): pdftoppm crops to it. */
const MAX_SIDE = 4000;

// -halt-on-error: a broken document fails now instead of looping on prompts; the page is
// rasterised in at most a 4000 px square (-W/-H crop), so a huge page cannot blow memory.
// A TeX error is never a page: in nonstop mode pdflatex would write the PDF despite errors;
// -halt-on-error stops at the first (a document's \scrollmode or \batchmode cannot undo
// it), and a log holding an error line ("! …") after an exit 0 fails the job all the same.
// pdftoppm's complaints about a page (a broken \pdfliteral is "Syntax Error" from poppler)
// go to stderr only, never into the picture's bytes on stdout: the page is then judged by
// what it draws (ok, or blank when it draws nothing), not as an unreadable picture.
function pipeline(dpi: number, fmt: boolean): string {
  const errorLines = "{ grep -m2 -A3 '^!' doc.log || tail -c 1500 doc.log; } >&2";
  return [
    'cat > doc.tex',
    `pdflatex ${fmt ? '-fmt=/fmt/rubrica ' : ''}-interaction=nonstopmode -halt-on-error -no-shell-escape doc.tex > /dev/null 2>&1 || { ${errorLines}; exit ${EXIT_TOOL_FAILED}; }`,
    `! grep -q '^! ' doc.log || { ${errorLines}; exit ${EXIT_TOOL_FAILED}; }`,
    `[ -s doc.pdf ] || { tail -c 1500 doc.log >&2; exit ${EXIT_NO_OUTPUT}; }`,
    // PPM straight to stdout: no PNG for pdftoppm to deflate and this process to inflate
    // (~14 CPU-ms a page, issue 36); ppm.ts reads it.
    `pdftoppm -r ${dpi} -f 1 -l 1 -x 0 -y 0 -W ${MAX_SIDE} -H ${MAX_SIDE} -singlefile doc.pdf || exit ${EXIT_NO_OUTPUT}`,
  ].join('\n');
}

const TEX_ENV = {
  openin_any: 'p',
  openout_any: 'p',
  shell_escape: 'f',
  TEXMFOUTPUT: '/work',
  TEXMFVAR: '/tmp/texmf-var',
  MKTEXPK: '0',
  MKTEXTFM: '0',
  MKTEXFMT: '0',
  // pdftex allocates its big arrays with malloc: with this, glibc asks for transparent huge
  // pages, and setting up those arrays costs ~2 700 page faults instead of ~8 300 (a fault
  // is ~30 µs on a VM): ~0.1 CPU-s of a 0.3 CPU-s run.
  GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
};

/**
 * The warm path: a pdflatex format with rubrica's preamble (standalone, TikZ, pgfplots and
 * the usual libraries) already loaded, dumped once per renderer with mylatexformat, in the
 * sandbox like any job. Bare pictures (wrapped in that preamble) start from it; whole
 * documents, with their own preambles, run from the stock format. Null when it cannot be
 * built (e.g. mylatexformat missing): then everything runs from the stock format.
 */
export async function buildLatexFormat(
  limits: Partial<SandboxLimits> | undefined,
): Promise<string | null> {
  const run = await runSandboxed(
    {
      argv: [
        '/bin/sh',
        '-c',
        'cat > pre.tex && pdflatex -ini -interaction=nonstopmode -jobname=rubrica "&pdflatex" mylatexformat.ltx pre.tex > /dev/null 2>&1 && cat rubrica.fmt',
      ],
      env: TEX_ENV,
      limits: { cpuSeconds: 120, processes: 32, ...limits },
      asPid1: true,
    },
    { input: `${LATEX_PREAMBLE}\\begin{document}\n\\end{document}\n`, timeoutMs: 180_000 },
  );
  if (run.code !== 0 || run.stdout.length < 1024) return null;
  // Stored uncompressed: pdftex dumps formats gzipped and reads them through zlib, which
  // also reads a plain file; unzipping 19 MB on every run was a quarter of its CPU.
  const gzipped = run.stdout[0] === 0x1f && run.stdout[1] === 0x8b;
  const fmt = gzipped ? gunzipSync(run.stdout) : run.stdout;
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-texfmt-'));
  chmodSync(dir, 0o755); // the sandbox runs as nobody
  writeFileSync(join(dir, 'rubrica.fmt'), fmt, { mode: 0o644 });
  return dir;
}

export function createLatexRenderer(opts: LatexRendererOptions = {}): DomainRenderer {
  const common = {
    name: 'pdflatex',
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxCodeBytes: 256 * 1024,
    trim: true,
    output: 'ppm' as const,
    // The largest page pdftoppm may write: MAX_SIDE² RGB samples and the header.
    maxStdoutBytes: MAX_SIDE * MAX_SIDE * 3 + 64,
    prepare: latexDocument,
    assets: true,
  };
  const limits = { cpuSeconds: 30, processes: 32, ...opts.limits };
  const plain = createOneShotRenderer({
    ...common,
    spec: { argv: ['/bin/sh', '-c', pipeline(opts.dpi ?? 150, false)], env: TEX_ENV, limits },
  });
  const formatDir = opts.format === false ? Promise.resolve(null) : null;
  let fmt: Promise<string | null> | null = formatDir;
  let warm: DomainRenderer | null = null;
  return {
    async render(code, ro) {
      if (/\\documentclass\b/.test(code)) return plain.render(code, ro);
      fmt ??= buildLatexFormat(opts.limits);
      const dir = await fmt;
      if (!dir) return plain.render(code, ro);
      warm ??= createOneShotRenderer({
        ...common,
        spec: {
          argv: ['/bin/sh', '-c', pipeline(opts.dpi ?? 150, true)],
          env: TEX_ENV,
          limits,
          roBinds: [{ host: dir, path: '/fmt' }],
        },
      });
      return warm.render(code, ro);
    },
    async close() {
      const dir = await fmt;
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
