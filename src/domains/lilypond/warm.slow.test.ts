// The warm LilyPond zygote (issue 23): the same pictures and failure codes as a fresh one-shot
// sandbox, and nothing a job does — files, processes, Scheme definitions, LilyPond options —
// reaches the next job.
import { afterAll, describe, expect, it } from 'vitest';
import { lilypondCorpus } from '../../../test/support/domain-corpus.ts';
import type { DomainRender } from '../types.ts';
import { createLilypondRenderer } from './renderer.ts';

const warm = createLilypondRenderer({ pool: true, timeoutMs: 30_000 });
const fresh = createLilypondRenderer({ pool: false, timeoutMs: 30_000 });
afterAll(async () => {
  await warm.close();
  await fresh.close();
});
const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);
const same = (a: DomainRender, b: DomainRender) => a.ok && b.ok && a.png.equals(b.png);

const NEXT = '\\relative { \\time 2/4 c\'8 d e f | g2 \\bar "|." }';

describe('warm lilypond', () => {
  it('engraves the same pictures as a fresh sandbox, score after score', async () => {
    for (const score of [...lilypondCorpus(3), '\\header { title = "T" } { c\'1^"text" }']) {
      const [a, b] = [await warm.render(score), await fresh.render(score)];
      expect(same(a, b), score).toBe(true);
    }
  }, 240_000);

  it('fails like the one-shot, and a job leaves nothing for the next', async () => {
    const plain = await fresh.render(NEXT);
    expect(plain.ok).toBe(true);
    for (const bad of [
      '\\version "2.24.0"\n\\score { \\new Staff { c\'4 ( }', // a syntax error
      '#(ly:error "given up")\n{ c\'1 }', // a fatal error from Scheme
      '\\version "2.24.0"\n\\header { title = "no music" }', // nothing to engrave
      // killed at the file-size limit: the one-shot's shell names the signal in the log
      '#(with-output-to-file "big.txt" (lambda () (let loop () (display (make-string 65536 #\\x)) (loop))))\n{ c\'1 }',
      // State a job could leave: files in every writable place, a process that outlives it,
      // a Scheme definition, LilyPond options, the working directory.
      `#(begin
          (for-each (lambda (f) (call-with-output-file f (lambda (p) (display "x" p))))
                    '("/tmp/left" "/work/left" "/dev/shm/left"))
          (if (= 0 (primitive-fork)) (begin (sleep 600) (primitive-exit 0)))
          (module-define! (resolve-module '(lily)) 'rubrica-left #t)
          (ly:set-option 'resolution 20)
          (chdir "/tmp"))
        { c'1 }`,
    ]) {
      const [a, b] = [await warm.render(bad), await fresh.render(bad)];
      expect(code(a), bad).toBe(code(b));
      if (!a.ok && !b.ok) expect(a.error.message).toBe(b.error.message);
      // The next job sees none of it, and draws what a fresh sandbox draws.
      const seen = await warm.render(
        `#(ly:error (if (or (file-exists? "/tmp/left") (file-exists? "/work/left") (file-exists? "/dev/shm/left") (module-defined? (resolve-module '(lily)) 'rubrica-left) (not (equal? (ly:get-option 'resolution) 200))) "dirty" "clean"))\n{ c'1 }`,
      );
      expect(seen.ok ? 'drawn' : seen.error.message, bad).toContain('fatal error: clean');
      const after = await warm.render(NEXT);
      expect(same(after, plain), bad).toBe(true);
    }
  }, 300_000);

  it('times out like the one-shot and serves the next job', async () => {
    const loop = await warm.render("#(let loop () (loop))\n{ c'1 }", { timeoutMs: 3_000 });
    expect(code(loop)).toBe('timeout');
    expect((await warm.render(NEXT)).ok).toBe(true);
  }, 120_000);
});
