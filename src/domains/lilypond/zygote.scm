;; A warm LilyPond zygote (issue 23), loaded by `lilypond -e '(primitive-load ".../zygote.scm")'`
;; inside the sandbox (warm.ts). Starting LilyPond — Guile, LilyPond's Scheme, fontconfig, the
;; init .ly files — is most of a small score's CPU: this process does it once, then forks one
;; child per job. Each child is a copy of the same pristine zygote, engraves the job's score
;; exactly as the one-shot `lilypond` does (lily.scm's `lilypond-file`, same options), and
;; exits; nothing it does reaches the zygote's memory (a separate address space; the zygote is
;; not dumpable, so the child cannot ptrace it or read /proc/<pid>/mem).
;;
;; Nor does any job's data (issue 36): a child is a copy of the zygote's whole heap, garbage
;; included, and a job's Scheme can read its own memory, so the zygote never reads a score or
;; a picture. The job's child reads its own job from stdin and passes back only its wall
;; limit; once the job is dead a second fork, the reporter, reads the picture and the log,
;; wipes, and answers. Both die with what they read (heap.slow.test.ts: job 2 searches its
;; memory for job 1's score).
;;
;; After each job the zygote (the sandbox's pid 1) SIGKILLs every other process of the pid
;; namespace and reaps them; the reporter wipes every writable place (/work, /tmp, /dev/shm,
;; /dev/mqueue, System V IPC); if anything is left it answers with "retire", the zygote
;; exits and the pool replaces the sandbox. The job's child holds only /dev/null (stdin) and
;; its log (stdout, stderr) once it has read its job.
;;
;; Protocol (src/domains/sandbox/line-worker.ts):
;;   in:  "<n>\n", n bytes of JSON {"hex": the score as hex, "ms": wall limit, "cpu": seconds},
;;        then "<nonce>\n". stdin is unbuffered: the child reads exactly the job's bytes, and
;;        the zygote the nonce only once every process of the job is dead (no job ever holds it).
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

;; The job's child. It reads the job itself — the zygote never holds a job's bytes, so no
;; later child, a copy of the zygote, can find them in its heap — tells the zygote its wall
;; limit (a number) on `limits`, then engraves /work/job/score.ly like a fresh `lilypond`
;; would, and exits.
(define (child n limits)
  (catch #t
    (lambda ()
      (let* ((bv (get-bytevector-n zygote-in n))
             (body (if (eof-object? bv) (primitive-_exit 1) (utf8->string bv)))
             (code (hex->bytes (or (json-field body "hex") "")))
             (cpu (or (json-field body "cpu") 30)))
        (display (or (json-field body "ms") 30000) limits)
        (newline limits)
        (close-port limits)
        (call-with-output-file "/work/job/score.ly" (lambda (p) (put-bytevector p code))
          #:binary #t)
        (setsid)
        (chdir "/work/job")
        (let ((null (open-fdes "/dev/null" O_RDONLY))
              (log (open-fdes "log.txt" (logior O_WRONLY O_CREAT O_TRUNC) #o644)))
          (dup2 null 0) (dup2 log 1) (dup2 log 2) (close-fdes null) (close-fdes log))
        (setrlimit 'cpu cpu (1+ cpu)))
      ;; As lilypond-all and lilypond-main end a one-file run (the same log lines).
      (let ((failed #f))
        ((@@ (lily) lilypond-file) (lambda _ (set! failed #t)) "score.ly")
        (ly:check-expected-warnings)
        (if failed (ly:error "failed files: ~S" "score.ly"))
        (ly:basic-progress "Success: compilation successfully completed")
        (flush-all-ports)
        (primitive-_exit 0)))
    (lambda _ (primitive-_exit 1))))

;; The reporter: a fork of the zygote made once the job's processes are dead. It reads the
;; job's picture and log, wipes every writable place, answers, and exits 0 (3: something
;; could not be wiped, and the zygote retires), so the picture never enters the zygote either.
(define (report nonce code timed-out)
  (catch #t
    (lambda ()
      (if (and (< code 0) (not timed-out))
          ;; What the one-shot's `sh` appends to the log when lilypond dies of a signal (its
          ;; limits' ones above all), so the summary below matches.
          (let ((p (open-file "/work/job/log.txt" "a")))
            (display (string-append (signal-text (- code)) "\n") p)
            (close-port p)))
      (let* ((png (if (= code 0) (file-bytes "/work/job/out.cropped.png") (make-bytevector 0)))
             (log (cond (timed-out (make-bytevector 0))
                        ((not (= code 0))
                         (shell-output "cd /work/job && { grep -m5 -E 'error|Error' log.txt || tail -c 1500 log.txt; }"))
                        ((= 0 (bytevector-length png))
                         (shell-output "tail -c 1500 /work/job/log.txt"))
                        (else (make-bytevector 0))))
             (clean (wiped?)))
        (display (string-append nonce " {\"status\":" (number->string code)
                                ",\"timedOut\":" (if timed-out "true" "false")
                                ",\"png\":\"" (bytes->hex png) "\""
                                ",\"log\":\"" (bytes->hex log) "\""
                                (if clean "" ",\"retire\":true") "}\n")
                 zygote-out)
        (force-output zygote-out)
        (primitive-_exit (if clean 0 3))))
    (lambda _ (primitive-_exit 4))))

;; One job: #f when stdin ended (or the zygote must retire), else #t. All the zygote itself
;; reads of a job: the frame's length, the wall limit its child passes on, and the nonce.
(define (serve-job)
  (let ((line (read-line zygote-in)))
    (and (not (eof-object? line))
         (string->number line)
         (let ((limits (pipe)))
           (mkdir "/work/job")
           (flush-all-ports)
           (let ((pid (primitive-fork)))
             (when (= pid 0)
               (close-port (car limits))
               (child (string->number line) (cdr limits)))
             (close-port (cdr limits))
             (let* ((said (read-line (car limits)))
                    (ms (or (and (string? said) (string->number said)) 30000))
                    (deadline (+ (get-internal-real-time)
                                 (* ms (quotient internal-time-units-per-second 1000))))
                    (status
                     (let wait ()
                       (let ((r (waitpid pid WNOHANG)))
                         (cond ((not (= 0 (car r))) (cdr r))
                               ((> (get-internal-real-time) deadline) #f)
                               (else (usleep 5000) (wait)))))))
               (close-port (car limits))
               (reap-all)
               (let* ((timed-out (not status))
                      (code (cond (timed-out -9)
                                  ((status:exit-val status) => identity)
                                  (else (- (status:term-sig status)))))
                      (nonce (read-line zygote-in)))
                 (and (not (eof-object? nonce))
                      (let ((r (primitive-fork)))
                        (if (= r 0) (report nonce code timed-out))
                        (let ((done (cdr (waitpid r))))
                          (reap-all)
                          (eqv? 0 (status:exit-val done))))))))))))

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
  (if (serve-job) (loop) (primitive-_exit 0)))
