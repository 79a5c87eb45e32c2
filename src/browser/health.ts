// How the browser room proves it still works after a job timed out or crashed, and how it
// ends a browser that does not. A page can leave damage behind that outlives its own page:
// Chromium's one GPU process (which also composites every page's screenshot) stays busy
// with a draw that never ends, and then every later job in that browser times out too,
// whatever it holds. So after any timeout or crash the room draws HEALTH_PAGE (no script,
// a few pixels) within HEALTH_TIMEOUT_MS before it takes the next job; if that fails, the
// browser is killed — its whole process group, so no busy GPU or renderer process is left
// behind — and the next job launches a new one.
import { readFileSync } from 'node:fs';

/** The health check's page: no script, nothing to load, one line of text. */
export const HEALTH_PAGE =
  '<!doctype html><html><body style="margin:0;background:#fff"><p>ok</p></body></html>';
export const HEALTH_VIEWPORT = Object.freeze({ width: 64, height: 64 });
/**
 * A healthy browser draws HEALTH_PAGE in well under 100 ms warm (a new context ≈ 0.5 s on a
 * loaded 2-core box); a busy one never does. A check that misses this costs one relaunch.
 */
export const HEALTH_TIMEOUT_MS = 5_000;

/** The process group of `pid` (field 5 of /proc/<pid>/stat), or undefined. */
function processGroup(pid: number | 'self'): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pgrp = Number(fields[2]);
    return Number.isInteger(pgrp) && pgrp > 0 ? pgrp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SIGKILL a browser and the processes it started. Playwright starts Chromium as the leader
 * of its own process group, which its zygotes, GPU, utility and renderer processes share:
 * the whole group is killed, never ours.
 */
export function killBrowserTree(pid: number): void {
  const group = processGroup(pid);
  const target = group === pid && group !== processGroup('self') ? -pid : pid;
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // already gone
  }
}
