// Temporary trees a bench makes (REF's worktree, the sides' copies) are removed in `finally`,
// which an interrupt skips: Ctrl-C on a ten-minute `--against` run left a worktree registered
// in the repository and copies in /tmp. `onInterrupt` runs its cleanup on SIGINT or SIGTERM,
// then lets the signal end the process as it would have (the caller's exit status).
const cleanups = new Set<() => void>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => {
      for (const fn of cleanups) {
        try {
          fn();
        } catch {
          // one failed cleanup must not keep the others from running
        }
      }
      cleanups.clear();
      process.kill(process.pid, sig);
    });
}

/** Runs `fn` if the process is interrupted; the returned function forgets it (cleaned up normally). */
export function onInterrupt(fn: () => void): () => void {
  install();
  cleanups.add(fn);
  return () => {
    cleanups.delete(fn);
  };
}
