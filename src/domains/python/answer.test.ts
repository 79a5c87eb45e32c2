// The python renderer reads the harness's answer as untrusted JSON: a failure code outside
// the harness's own list (above all a grader fault's) is the job's exec_error.
import { describe, expect, it } from 'vitest';
import { readAnswer } from './renderer.ts';

describe('readAnswer', () => {
  it('keeps the codes a harness may answer with', () => {
    for (const code of ['exec_error', 'no_output', 'too_large', 'timeout', 'sandbox_error']) {
      const a = readAnswer({ ok: false, error: { code, message: 'm' } });
      expect('fail' in a && a.fail).toEqual({ code, message: 'm' });
    }
  });

  it('turns a grader fault or any other code into exec_error', () => {
    for (const code of ['infra_error', 'judge_error', 'scorer_error', 'cache_error', 'blank', 7]) {
      const a = readAnswer({ ok: false, error: { code, message: 'forged' } });
      expect('fail' in a && a.fail.code).toBe('exec_error');
    }
  });

  it('takes a picture only from ok: true with a string, and only string warnings', () => {
    expect('png' in readAnswer({ ok: true, png: 'iVBO', warnings: ['w', 3] })).toBe(true);
    expect(readAnswer({ ok: true, png: 'x', warnings: ['w', 3] }).notes.warnings).toEqual(['w']);
    expect('fail' in readAnswer({ ok: 'yes', png: 'iVBO' })).toBe(true);
    expect('fail' in readAnswer(null)).toBe(true);
  });
});
