// The latex domain: pdflatex (Debian texlive) inside the sandbox with shell escape off and
// kpathsea's paranoid file access (openin_any/openout_any = p: no absolute paths, no parent
// directories, no dot files), then pdftoppm → PNG, cropped to the drawing. A bare TikZ
// picture or pgfplots axis is wrapped in a standalone document.
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import type { DomainRenderer } from '../types.ts';

export interface LatexRendererOptions {
  timeoutMs?: number;
  /** Rasterising resolution (default 150 dpi). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
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

// -halt-on-error: a broken document fails now instead of looping on prompts; the page is
// rasterised in at most a 4000 px square (-W/-H crop), so a huge page cannot blow memory.
function pipeline(dpi: number): string {
  return [
    'cat > doc.tex',
    `pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape doc.tex > /dev/null 2>&1 || { { grep -m2 -A3 '^!' doc.log || tail -c 1500 doc.log; } >&2; exit ${EXIT_TOOL_FAILED}; }`,
    `[ -s doc.pdf ] || { tail -c 1500 doc.log >&2; exit ${EXIT_NO_OUTPUT}; }`,
    `pdftoppm -png -r ${dpi} -f 1 -l 1 -x 0 -y 0 -W 4000 -H 4000 -singlefile doc.pdf out 2>&1 >&2 || exit ${EXIT_NO_OUTPUT}`,
    'cat out.png',
  ].join('\n');
}

export function createLatexRenderer(opts: LatexRendererOptions = {}): DomainRenderer {
  return createOneShotRenderer({
    name: 'pdflatex',
    spec: {
      argv: ['/bin/sh', '-c', pipeline(opts.dpi ?? 150)],
      env: {
        openin_any: 'p',
        openout_any: 'p',
        shell_escape: 'f',
        TEXMFOUTPUT: '/work',
        TEXMFVAR: '/tmp/texmf-var',
        MKTEXPK: '0',
        MKTEXTFM: '0',
        MKTEXFMT: '0',
      },
      limits: { cpuSeconds: 30, processes: 32, ...opts.limits },
    },
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxCodeBytes: 256 * 1024,
    trim: true,
    prepare: latexDocument,
  });
}
