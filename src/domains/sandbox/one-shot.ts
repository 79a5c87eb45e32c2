// A domain renderer that runs one sandboxed shell pipeline per job (latex, dot): the code
// goes in on stdin, the pipeline writes the picture (PNG, or PPM) — and only it — to stdout. Exit codes
// of the pipeline name the failure: 3 the tool rejected the code (stderr carries its log
// tail), 4 it produced nothing. Every outcome is a DomainRender value. With `assets`, the
// job's task data files are bound read-only into its working directory under their names
// (job-files.ts); the other one-shot domains ignore them.
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import { ppmResult } from '../ppm.ts';
import type { DomainRender, DomainRenderer, DomainRenderOptions } from '../types.ts';
import type { SandboxSpec } from './bwrap.ts';
import { stageJobFiles } from './job-files.ts';
import { runSandboxed } from './run.ts';

export const EXIT_TOOL_FAILED = 3;
export const EXIT_NO_OUTPUT = 4;

export interface OneShotOptions {
  name: string;
  spec: SandboxSpec;
  timeoutMs: number;
  /** Bytes of code accepted (more is `too_large` before anything runs). */
  maxCodeBytes: number;
  /** Trim the uniform margin of the picture (a LaTeX page). */
  trim?: boolean;
  /** Turns the code into the pipeline's stdin (e.g. wraps a bare TikZ picture). */
  prepare?: (code: string) => string;
  /** Give the job its task data (`ro.assets`) as read-only files in /work (latex). */
  assets?: boolean;
  /** What the pipeline writes: a PNG (default) or a binary PPM (latex: pdftoppm's own). */
  output?: 'png' | 'ppm';
  /** Bytes of stdout accepted (default 32 MiB; more is `too_large`). */
  maxStdoutBytes?: number;
}

export function createOneShotRenderer(o: OneShotOptions): DomainRenderer {
  return {
    async render(code: string, ro: DomainRenderOptions = {}): Promise<DomainRender> {
      const started = performance.now();
      if (Buffer.byteLength(code) > o.maxCodeBytes) {
        const message = `${o.name} code over ${o.maxCodeBytes} bytes`;
        return { ok: false, error: makeError('too_large', message), ms: 0 };
      }
      const files = o.assets ? stageJobFiles(ro.assets) : null;
      const spec = files
        ? { ...o.spec, roBinds: [...(o.spec.roBinds ?? []), ...files.binds] }
        : o.spec;
      const run = await runSandboxed(
        { asPid1: true, ...spec },
        {
          input: o.prepare ? o.prepare(code) : code,
          timeoutMs: ro.timeoutMs ?? o.timeoutMs,
          maxStdoutBytes: o.maxStdoutBytes ?? 32 * 1024 ** 2,
          ...(ro.signal ? { signal: ro.signal } : {}),
        },
      ).finally(() => files?.remove());
      const ms = performance.now() - started;
      const tail = run.stderr.trim().slice(-1500);
      const notes = tail ? { stderrTail: tail } : {};
      const fail = (code: Parameters<typeof makeError>[0], message: string): DomainRender => ({
        ok: false,
        error: makeError(code as 'exec_error', message),
        ms,
        notes,
      });
      if (run.spawnError)
        return fail('sandbox_error', `cannot start the sandbox: ${run.spawnError}`);
      if (run.timedOut)
        return fail('timeout', `${o.name} ran over ${ro.timeoutMs ?? o.timeoutMs} ms`);
      if (run.tooLarge) return fail('too_large', `${o.name} output over the size limit`);
      // Checked before the signal: the kernel's kill over the cap is a SIGKILL too.
      if (run.memoryExceeded) {
        return fail('too_large', `${o.name} went over the sandbox's memory cap`);
      }
      // prlimit's CPU limit: SIGXCPU (exit 128+24) or SIGKILL past the hard limit.
      if (run.signal !== null || run.code === 152 || run.code === 137) {
        return fail('timeout', `${o.name} ran over its CPU limit`);
      }
      if (run.code === EXIT_TOOL_FAILED) return fail('exec_error', `${o.name} failed:\n${tail}`);
      if (run.code === EXIT_NO_OUTPUT || (run.code === 0 && run.stdout.length === 0)) {
        return fail('no_output', `${o.name} produced no picture${tail ? `:\n${tail}` : ''}`);
      }
      if (run.code !== 0) {
        return fail('sandbox_error', `the ${o.name} sandbox exited with ${run.code}: ${tail}`);
      }
      const picture = o.output === 'ppm' ? ppmResult : pngResult;
      return picture(run.stdout, started, notes, { trim: o.trim ?? false });
    },
    async close() {},
  };
}
