// What the parent accepts from the vega runtime as a job's answer. The runtime runs the
// policy's spec, so its message is read as untrusted: only a well-formed answer counts, and
// the only failure codes it can give are the spec's own (`exec_error`, `too_large`) — a
// grader-fault code (infra_error, …) or anything else becomes `exec_error`, never passed on.

export type RuntimeAnswer =
  | { ok: true; svg: string; rows: number; warnings: string[] }
  | { ok: false; code: 'exec_error' | 'too_large'; message: string };

const SPEC_CODES = new Set(['exec_error', 'too_large']);

export function asRuntimeAnswer(m: unknown): RuntimeAnswer {
  const a = (m ?? {}) as Record<string, unknown>;
  if (a.ok === true && typeof a.svg === 'string') {
    const warnings = Array.isArray(a.warnings) ? a.warnings : [];
    return {
      ok: true,
      svg: a.svg,
      rows: typeof a.rows === 'number' && Number.isFinite(a.rows) ? a.rows : 0,
      warnings: warnings.slice(0, 20).map((w) => String(w).slice(0, 300)),
    };
  }
  const message = typeof a.message === 'string' ? a.message.slice(0, 2000) : 'no message';
  if (a.ok === false && typeof a.code === 'string' && SPEC_CODES.has(a.code)) {
    return { ok: false, code: a.code as 'exec_error' | 'too_large', message };
  }
  return {
    ok: false,
    code: 'exec_error',
    message: `the vega runtime gave no valid answer: ${message}`,
  };
}
