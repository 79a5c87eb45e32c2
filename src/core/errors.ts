// Stable error codes, and the one base class for thrown errors.
//
// Bad input from a policy is never an exception: it becomes a value (`ErrorValue`) carrying
// one of the codes below, so trainers and reports can count failures by reason. Exceptions
// are for callers' mistakes (configuration, usage) and for infrastructure that cannot go on
// (a closed pool, a corrupted cache); each is a `RubricaError` subclass with a stable `code`
// and `isRetryable`, so callers branch on `instanceof RubricaError` and `code`, never on a
// message or a class name string.

/** Why no SVG could be taken from a completion. */
export type ArtifactErrorCode = 'no_svg' | 'truncated' | 'no_code'; // no_code: other domains (src/domains)

/** Why an SVG could not be turned into a picture. */
export type RenderErrorCode =
  | 'parse_error' // not well-formed XML, invalid UTF-8, no <svg> root
  | 'too_large' // over a byte / element / depth / segment / <use> / pixel limit
  | 'timeout' // the render took longer than its wall-clock limit; the worker was killed
  | 'render_crash' // the renderer process died (signal, abort, out of memory)
  | 'render_error' // the renderer refused the file with an error
  // Other domains' renderers (src/domains, docs/domains.md):
  | 'exec_error' // the program or compiler failed; the message ends with its stderr tail
  | 'no_output' // it ran but drew nothing
  | 'blank' // the picture is one flat colour
  | 'sandbox_error'; // the sandbox could not run or died mid-job (still a zero: see docs)

/** A failure carried as a value: a stable code and a readable message. */
export interface ErrorValue<C extends string = string> {
  code: C;
  message: string;
}

/** An error value `{code, message}`: how bad input is reported inside results instead of thrown. */
export function makeError<C extends string>(code: C, message: string): ErrorValue<C> {
  return { code, message };
}

export interface RubricaErrorOptions {
  /** True when the same call may succeed later (a busy queue, a flaky service). */
  retryable?: boolean;
  cause?: unknown;
}

/** The base of every error rubrica throws. */
export class RubricaError<C extends string = string> extends Error {
  readonly code: C;
  readonly isRetryable: boolean;
  constructor(code: C, message: string, opts: RubricaErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.isRetryable = opts.retryable ?? false;
    // Subclasses keep their own class name in stack traces and logs.
    this.name = new.target.name;
  }
}

/** True for any error rubrica throws (a RubricaError, with a stable `code` to branch on). */
export function isRubricaError(err: unknown): err is RubricaError {
  return err instanceof RubricaError;
}

export type { UnscoreableReason } from './status.ts';
