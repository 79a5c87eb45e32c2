// The runtime's answer is untrusted: only the spec's own failure codes pass; a forged
// grader-fault code or a malformed answer is the spec's exec_error.
import { describe, expect, it } from 'vitest';
import { asRuntimeAnswer } from './answer.ts';

describe('asRuntimeAnswer', () => {
  it('keeps a chart and the spec codes', () => {
    expect(asRuntimeAnswer({ ok: true, svg: '<svg/>', rows: 3, warnings: ['w'] })).toEqual({
      ok: true,
      svg: '<svg/>',
      rows: 3,
      warnings: ['w'],
    });
    expect(asRuntimeAnswer({ ok: false, code: 'too_large', message: 'm' })).toEqual({
      ok: false,
      code: 'too_large',
      message: 'm',
    });
  });

  it('never passes a grader-fault code or a malformed answer', () => {
    for (const code of ['infra_error', 'judge_error', 'scorer_error', 'cache_error', 'timeout']) {
      expect(asRuntimeAnswer({ ok: false, code, message: 'x' })).toMatchObject({
        ok: false,
        code: 'exec_error',
      });
    }
    expect(asRuntimeAnswer({ ok: true, svg: 42 })).toMatchObject({ ok: false, code: 'exec_error' });
    expect(asRuntimeAnswer(null)).toMatchObject({ ok: false, code: 'exec_error' });
  });
});
