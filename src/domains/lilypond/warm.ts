// The warm LilyPond (issue 23): a pool of sandboxed zygotes (zygote.scm) that load LilyPond
// once and fork one child per score. Each answer is turned into exactly what the one-shot
// pipeline (renderer.ts) gives for the same score: the same picture, the same failure codes,
// the same log lines in the message. The zygote's answer is untrusted JSON: only fields of
// the expected types count.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import type { SandboxSpec } from '../sandbox/bwrap.ts';
import { isFailure } from '../sandbox/line-worker.ts';
import type { DomainRender } from '../types.ts';

const ZYGOTE_DIR = dirname(fileURLToPath(new URL('./zygote.scm', import.meta.url)));

/** The zygote's sandbox: the one-shot's, with LilyPond itself as pid 1 running zygote.scm. */
export function zygoteSpec(
  dpi: number,
  env: Record<string, string>,
  limits: SandboxSpec['limits'],
): SandboxSpec {
  return {
    asPid1: true,
    argv: [
      'lilypond',
      '--png',
      '-dcrop',
      '-dno-print-pages',
      `-dresolution=${dpi}`,
      '-dno-point-and-click',
      '-o',
      'out',
      '-e',
      '(primitive-load "/rubrica/zygote.scm")',
    ],
    roBinds: [{ host: ZYGOTE_DIR, path: '/rubrica' }],
    env,
    limits,
  };
}

/** A job as the zygote reads it: the score as hex, its wall-clock and CPU limits. */
export function zygoteJob(score: string, timeoutMs: number, cpuSeconds: number) {
  return { hex: Buffer.from(score).toString('hex'), ms: timeoutMs, cpu: cpuSeconds };
}

const HEX = /^(?:[0-9a-f]{2})*$/;

/** The zygote's answer (or the worker's failure) as the one-shot renderer would give it. */
export async function warmResult(
  answer: unknown,
  timeoutMs: number,
  started: number,
): Promise<DomainRender> {
  const ms = () => performance.now() - started;
  if (isFailure(answer)) {
    const code = answer.failed === 'memory' ? 'too_large' : 'sandbox_error';
    const message =
      answer.failed === 'memory'
        ? 'lilypond went over the sandbox memory cap'
        : `lilypond sandbox ${answer.failed}: ${answer.message}`;
    return { ok: false, error: makeError(code, message), ms: ms() };
  }
  const o = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<
    string,
    unknown
  >;
  const hex = (v: unknown) => Buffer.from(typeof v === 'string' && HEX.test(v) ? v : '', 'hex');
  if (typeof o.status !== 'number' || typeof o.timedOut !== 'boolean') {
    return {
      ok: false,
      error: makeError('sandbox_error', 'the lilypond zygote answered garbage'),
      ms: ms(),
    };
  }
  const tail = hex(o.log).toString('utf8').trim().slice(-1500);
  const notes = tail ? { stderrTail: tail } : {};
  const fail = (code: 'timeout' | 'exec_error' | 'no_output', message: string): DomainRender => ({
    ok: false,
    error: makeError(code, message),
    ms: ms(),
    notes,
  });
  if (o.timedOut) return fail('timeout', `lilypond ran over ${timeoutMs} ms`);
  // Like the pipeline: a lilypond that did not exit 0 (an error, or killed at a limit) failed.
  if (o.status !== 0) return fail('exec_error', `lilypond failed:\n${tail}`);
  const png = hex(o.png);
  if (png.length === 0) {
    return fail('no_output', `lilypond produced no picture${tail ? `:\n${tail}` : ''}`);
  }
  return pngResult(png, started, notes, { trim: true });
}
