;; A warm LilyPond zygote (issue 23), loaded by `lilypond -e '(primitive-load ".../zygote.scm")'`
;; inside the sandbox (warm.ts). Starting LilyPond — Guile, LilyPond's Scheme, fontconfig, the
;; init .ly files — is most of a small score's CPU: this process does it once, then forks one
;; child per job. Each child is a copy of the same pristine zygote, engraves the job's score
;; exactly as the one-shot `lilypond` does (lily.scm's `lilypond-file`, same options), and
;; exits; nothing it does reaches the zygote's memory (a separate address space; the zygote is
;; not dumpable, so the child cannot ptrace it or read /proc/<pid>/mem).
;;
;; After each job the zygote (the sandbox's pid 1) SIGKILLs every other process of the pid
;; namespace, reaps them, and wipes every writable place (/work, /tmp, /dev/shm, /dev/mqueue,
;; System V IPC); if anything is left it answers with "retire" and the pool replaces the
;; sandbox. The job's child holds only /dev/null (stdin) and its log (stdout, stderr).
;;
;; Protocol (src/domains/sandbox/line-worker.ts):
;;   in:  "<n>\n", n bytes of JSON {"hex": the score as hex, "ms": wall limit, "cpu": seconds},
;;        then "<nonce>\n". stdin is unbuffered: the zygote reads exactly the job's bytes, and
;;        the nonce only once every process of the job is dead (no job ever holds it).
;;   out: "{\"ready\":true}\n" once, then per job "<nonce> " + one JSON object:
;;        {"status": exit code (-signal when killed), "timedOut": bool, "png": hex of
;;        out.cropped.png when it exited 0 and wrote one, "log": hex of what the one-shot
;;        pipeline writes to stderr (its error lines, else the log's tail), "retire": true}
(use-modules (ice-9 rdelim) (ice-9 regex) (ice-9 popen)
             (rnrs bytevectors) (rnrs io ports) (system foreign))

(define zygote-in (current-input-port))
(define zygote-out (current-output-port))
(setvbuf zygote-in 'none)

;; Not dumpable (prctl PR_SET_DUMPABLE = 4, 0): a job's process, same user, cannot attach to
;; the zygote or read its memory. Inherited by the children, which are the job's to lose.
((pointer->procedure int (dynamic-func "prctl" (dynamic-link))
                     (list int unsigned-long unsigned-long unsigned-long unsigned-long))
 4 0 0 0 0)

(define hex-digits "0123456789abcdef")

(define (bytes->hex bv)
  (let* ((n (bytevector-length bv)) (s (make-string (* 2 n))))
    (do ((i 0 (1+ i))) ((= i n) s)
      (let ((b (bytevector-u8-ref bv i)))
        (string-set! s (* 2 i) (string-ref hex-digits (ash b -4)))
        (string-set! s (1+ (* 2 i)) (string-ref hex-digits (logand b 15)))))))

(define (hex->bytes s)
  (let* ((n (quotient (string-length s) 2)) (bv (make-bytevector n)))
    (do ((i 0 (1+ i))) ((= i n) bv)
      (bytevector-u8-set! bv i (string->number (substring s (* 2 i) (+ 2 (* 2 i))) 16)))))

(define (file-bytes path)
  (if (file-exists? path)
      (call-with-input-file path (lambda (p) (let ((b (get-bytevector-all p)))
                                               (if (eof-object? b) (make-bytevector 0) b)))
        #:binary #t)
      (make-bytevector 0)))

(define (shell-output cmd)
  (let* ((p (open-input-pipe cmd))
         (b (get-bytevector-all p)))
    (close-pipe p)
    (if (eof-object? b) (make-bytevector 0) b)))

(define (json-field body name)
  (let ((m (string-match (string-append "\"" name "\":(\"([0-9a-f]*)\"|([0-9]+))") body)))
    (and m (or (match:substring m 2) (string->number (match:substring m 3))))))

(define (signal-text n)
  (case n
    ((6) "Aborted") ((7) "Bus error") ((8) "Floating point exception") ((9) "Killed")
    ((11) "Segmentation fault") ((24) "CPU time limit exceeded")
    ((25) "File size limit exceeded") (else (string-append "Signal " (number->string n)))))

(define (reap-all)
  ;; Every process but this one dies; all of them are reaped (they are ours: we are pid 1).
  (catch #t (lambda () (kill -1 SIGKILL)) (lambda _ #f))
  (let loop ()
    (when (catch #t (lambda () (waitpid WAIT_ANY) #t) (lambda _ #f))
      (loop))))

;; The writable places, emptied after every job; "left" if anything could not be removed.
(define wipe-script
  "for d in /work /tmp /dev/shm /dev/mqueue; do chmod -R u+rwX $d 2>/dev/null; find $d -mindepth 1 -delete 2>/dev/null; done; ipcrm -a 2>/dev/null; find /work /tmp /dev/shm /dev/mqueue -mindepth 1 2>/dev/null | grep -q . && echo left")

(define (wiped?)
  (= 0 (bytevector-length (shell-output wipe-script))))

;; The job's child: engrave /work/job/score.ly like a fresh `lilypond` would, then exit.
(define (child cpu)
  (catch #t
    (lambda ()
      (setsid)
      (chdir "/work/job")
      (let ((null (open-fdes "/dev/null" O_RDONLY))
            (log (open-fdes "log.txt" (logior O_WRONLY O_CREAT O_TRUNC) #o644)))
        (dup2 null 0) (dup2 log 1) (dup2 log 2) (close-fdes null) (close-fdes log))
      (setrlimit 'cpu cpu (1+ cpu))
      ;; As lilypond-all and lilypond-main end a one-file run (the same log lines).
      (let ((failed #f))
        ((@@ (lily) lilypond-file) (lambda _ (set! failed #t)) "score.ly")
        (ly:check-expected-warnings)
        (if failed (ly:error "failed files: ~S" "score.ly"))
        (ly:basic-progress "Success: compilation successfully completed")
        (flush-all-ports)
        (primitive-_exit 0)))
    (lambda _ (primitive-_exit 1))))

(define (run-job body)
  (let* ((code (hex->bytes (or (json-field body "hex") "")))
         (ms (or (json-field body "ms") 30000))
         (cpu (or (json-field body "cpu") 30)))
    (mkdir "/work/job")
    (call-with-output-file "/work/job/score.ly" (lambda (p) (put-bytevector p code)) #:binary #t)
    (bytevector-fill! code 0)
    (flush-all-ports)
    (let ((pid (primitive-fork)))
      (if (= pid 0) (child cpu))
      (let* ((deadline (+ (get-internal-real-time)
                          (* ms (quotient internal-time-units-per-second 1000))))
             (status
              (let wait ()
                (let ((r (waitpid pid WNOHANG)))
                  (cond ((not (= 0 (car r))) (cdr r))
                        ((> (get-internal-real-time) deadline) #f)
                        (else (usleep 5000) (wait)))))))
        (reap-all)
        (let* ((timed-out (not status))
               (code (cond (timed-out -9)
                           ((status:exit-val status) => identity)
                           (else (- (status:term-sig status)))))
               (_ (if (and (< code 0) (not timed-out))
                      ;; What the one-shot's `sh` appends to the log when lilypond dies of a
                      ;; signal (its limits' ones above all), so the summary below matches.
                      (let ((p (open-file "/work/job/log.txt" "a")))
                        (display (string-append (signal-text (- code)) "\n") p)
                        (close-port p))))
               (png (if (= code 0) (file-bytes "/work/job/out.cropped.png") (make-bytevector 0)))
               (log (cond (timed-out (make-bytevector 0))
                          ((not (= code 0))
                           (shell-output "cd /work/job && { grep -m5 -E 'error|Error' log.txt || tail -c 1500 log.txt; }"))
                          ((= 0 (bytevector-length png))
                           (shell-output "tail -c 1500 /work/job/log.txt"))
                          (else (make-bytevector 0))))
               (clean (wiped?)))
          (reap-all)
          (string-append "{\"status\":" (number->string code)
                         ",\"timedOut\":" (if timed-out "true" "false")
                         ",\"png\":\"" (bytes->hex png) "\""
                         ",\"log\":\"" (bytes->hex log) "\""
                         (if clean "" ",\"retire\":true") "}"))))))

(define (read-frame)
  (let ((line (read-line zygote-in)))
    (if (eof-object? line) #f
        (let ((bv (get-bytevector-n zygote-in (string->number line))))
          (if (eof-object? bv) #f (utf8->string bv))))))

;; What lily.scm's lilypond-all does once before the files, then one throw-away score in the
;; zygote itself, so LilyPond's lazily built state (fonts, code paths, the heap the children
;; allocate from) exists before the first fork: measured, a child then costs ≈ 0.55 CPU-s
;; instead of ≈ 1.4, since it writes far fewer of the zygote's copy-on-write pages. Options
;; and session variables are reset after it as lilypond-all does between files; the pictures
;; stay byte-identical to a fresh `lilypond`'s (warm.slow.test.ts).
(ly:reset-all-fonts)
(ly:parse-init "declarations-init.ly")
(let ((settings (ly:all-options)))
  (mkdir "/work/warm")
  (chdir "/work/warm")
  (call-with-output-file "score.ly"
    (lambda (p) (display "\\version \"2.24.0\"\n\\relative { \\time 3/4 c'4^\"warm\" d8 e f2 | g2. \\bar \"|.\" }\n" p)))
  ((@@ (lily) lilypond-file) (lambda _ #f) "score.ly")
  ((@@ (lily) session-terminate))
  (for-each (lambda (s) (ly:set-option (car s) (cdr s))) settings)
  (chdir "/work")
  (gc))
(reap-all)
(if (not (wiped?)) (primitive-_exit 1))
(display "{\"ready\":true}\n" zygote-out)
(force-output zygote-out)
(let loop ()
  (let ((body (read-frame)))
    (if (not body) (primitive-_exit 0))
    (let ((answer (run-job body))
          (nonce (read-line zygote-in)))
      (if (eof-object? nonce) (primitive-_exit 0))
      (display (string-append nonce " " answer "\n") zygote-out)
      (force-output zygote-out)
      (if (string-contains answer "\"retire\"") (primitive-_exit 0))
      (loop))))
