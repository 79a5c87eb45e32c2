// The warm zygote keeps no job's data (issue 36): every child is a fork of the zygote, so
// whatever the zygote once held — a score it read, a picture it sent back — would be in the
// next job's address space, where its Scheme can read it (/proc/self/mem is always open to a
// process itself, once it makes itself dumpable again). Job 1 carries a secret; job 2
// searches all of its own writable memory for it, in the form the job travels in (hex) and as
// it is. The needle is never whole in job 2's memory (its halves are separate strings, and
// grep, another process, reads it from a file), so a find is the secret from elsewhere.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { DomainRender } from '../types.ts';
import { createLilypondRenderer } from './renderer.ts';

const warm = createLilypondRenderer({ pool: true, timeoutMs: 60_000 });
afterAll(async () => {
  await warm.close();
});

/** A score that fails with "fatal error: found" or "fatal error: none". */
function searcher(needle: string): string {
  const half = Math.floor(needle.length / 2);
  const [a, b] = [needle.slice(0, half), needle.slice(half)];
  return `#(use-modules (ice-9 rdelim) (ice-9 regex) (rnrs bytevectors)
                    ((ice-9 iconv) #:select (bytevector->string))
                    ((rnrs io ports) #:select (get-bytevector-n put-bytevector))
                    (system foreign))
% The zygote's children are not dumpable, which closes /proc/self/mem to them; a job can
% undo that for itself (prctl PR_SET_DUMPABLE 1), so it can read its whole heap.
#((pointer->procedure int (dynamic-func "prctl" (dynamic-link))
                      (list int unsigned-long unsigned-long unsigned-long unsigned-long))
  4 1 0 0 0)
#(define a "${a}")
#(define b "${b}")
% grep does the searching (Guile would take minutes): each 8 MB of memory goes to a file,
% and the pattern is written to its file a then b, unbuffered, so it is never whole here.
#(let ((p (open-output-file "/tmp/pattern")))
   (setvbuf p 'none)
   (display a p)
   (display b p)
   (newline p)
   (close-port p))
#(define (chunk mem at n)
  (catch #t
    (lambda () (seek mem at SEEK_SET) (get-bytevector-n mem n))
    (lambda _ #f)))
#(define (holds? bv)
  (call-with-output-file "/tmp/chunk" (lambda (p) (put-bytevector p bv)) #:binary #t)
  (= 0 (status:exit-val (system* "grep" "-q" "-a" "-F" "-f" "/tmp/pattern" "/tmp/chunk"))))
#(define (region? mem start end)
  (let loop ((at start))
    (and (< at end)
         (let* ((n (min (* 8 1024 1024) (- end at)))
                (bv (chunk mem at n)))
           (or (and (bytevector? bv) (holds? bv))
               ;; the next chunk overlaps this one by 256 bytes, so no find spans two unseen
               (and (< (+ at n) end) (loop (+ at (- n 256)))))))))
#(define (scan)
  (let ((mem (open-input-file "/proc/self/mem" #:binary #t))
        (maps (open-input-file "/proc/self/maps")))
    (let next ()
      (let ((line (read-line maps)))
        (and (not (eof-object? line))
             (let ((m (string-match "^([0-9a-f]+)-([0-9a-f]+) rw" line)))
               (or (and m (region? mem (string->number (match:substring m 1) 16)
                                   (string->number (match:substring m 2) 16)))
                   (next))))))))
#(define found (catch #t scan (lambda (key . args) (list key))))
#(ly:error (cond ((pair? found) (format #f "scan failed: ~a" (car found)))
                 (found "found")
                 (else "none")))
{ c'1 }`;
}

const said = (r: DomainRender) => (r.ok ? 'drawn' : r.error.message);

describe('warm lilypond heap', () => {
  it("a job cannot find an earlier job's score in its memory", async () => {
    const secret = `rubrica-secret-${randomBytes(8).toString('hex')}`;
    const hex = Buffer.from(secret).toString('hex');
    // The search works: it finds what its own job holds whole (the secret, built at run time).
    const self = searcher(hex).replace(
      '#(define found',
      `#(define held (string-append "${hex.slice(0, 5)}" "${hex.slice(5)}"))\n#(define found`,
    );
    expect(said(await warm.render(self))).toContain('fatal error: found');
    // Job 1: the secret in a comment of a score that draws.
    const job1 = await warm.render(`% ${secret}\n{ c'1^"${secret.slice(0, 14)}" }`);
    expect(job1.ok).toBe(true);
    for (const needle of [hex, secret]) {
      expect(said(await warm.render(searcher(needle))), needle).toContain('fatal error: none');
    }
  }, 300_000);
});
