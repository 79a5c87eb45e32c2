// The lilypond domain: LilyPond (Debian `lilypond`) engraves the score inside the sandbox,
// its PNG back end (Ghostscript) rasterises it with -dcrop (the systems only, every page's
// together, without the page's margins, page numbers and tagline), trimmed to the ink.
// Per file it costs what a bare `lilypond` does (issue 23, docs/domains.md): Guile loads
// LilyPond's compiled Scheme (compiled-scheme.ts) and only the cropped picture is drawn.
// LilyPond's own "safe mode" no longer exists (removed in 2.23.12): embedded Scheme can call
// anything Guile offers, so the sandbox is the whole defence — no network, no host files, no
// host environment, CPU/memory/process/file-size limits (docs/domains.md).
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import type { DomainRenderer } from '../types.ts';
import { lilypondCompiledScheme } from './compiled-scheme.ts';

export interface LilypondRendererOptions {
  timeoutMs?: number;
  /** Rasterising resolution (default 200 dpi: one system of a staff is ≈ 1450×110 px). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
}

/** A bare music expression (no \version, \score or \header) is wrapped as one score. */
export function lilypondDocument(code: string): string {
  if (/\\(?:version|score|header|book|paper)\b/.test(code)) return code;
  return `\\version "2.24.0"\n{\n${code}\n}\n`;
}

// -dcrop writes out.cropped.png (all systems, no page furniture); -dno-print-pages skips the
// whole pages' PNG, which nothing reads (a Ghostscript run less: ≈ 0.3 CPU-s a file);
// -dno-point-and-click keeps file paths out of the output.
function pipeline(dpi: number): string {
  return [
    'cat > score.ly',
    `lilypond --png -dcrop -dno-print-pages -dresolution=${dpi} -dno-point-and-click -o out score.ly > log.txt 2>&1 || { grep -m5 -E 'error|Error' log.txt >&2 || tail -c 1500 log.txt >&2; exit ${EXIT_TOOL_FAILED}; }`,
    `[ -s out.cropped.png ] && exec cat out.cropped.png; tail -c 1500 log.txt >&2; exit ${EXIT_NO_OUTPUT}`,
  ].join('\n');
}

/** The sandbox's environment: no auto-compiling, and LilyPond's compiled Scheme when found. */
export function lilypondEnv(compiled = lilypondCompiledScheme()): Record<string, string> {
  return {
    GUILE_AUTO_COMPILE: '0',
    XDG_CACHE_HOME: '/tmp/cache',
    ...(compiled ? { GUILE_LOAD_COMPILED_PATH: compiled } : {}),
  };
}

export function createLilypondRenderer(opts: LilypondRendererOptions = {}): DomainRenderer {
  return createOneShotRenderer({
    name: 'lilypond',
    spec: {
      argv: ['/bin/sh', '-c', pipeline(opts.dpi ?? 200)],
      env: lilypondEnv(),
      limits: { cpuSeconds: 30, memoryBytes: 2 * 1024 ** 3, processes: 32, ...opts.limits },
    },
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxCodeBytes: 128 * 1024,
    trim: true,
    prepare: lilypondDocument,
  });
}
