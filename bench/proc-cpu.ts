// CPU seconds of a process tree from /proc (Linux), for the benches' per-core figures.

/**
 * user + system + reaped children's (fields 14–17 of /proc/PID/stat) of `root` and every
 * live process under it: a server, its render workers, their sandboxes and browsers. A
 * process that exited was reaped by its parent, whose cutime/cstime then holds its CPU.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function treeCpuSeconds(root: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(f[1]));
      cpu.set(Number(name), (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100);
    } catch {
      // exited while we looked
    }
  }
  let sum = 0;
  for (const [pid, c] of cpu) {
    let p: number | undefined = pid;
    while (p && p !== root && p !== 1) p = parent.get(p);
    if (p === root) sum += c;
  }
  return sum;
}

/**
 * CPU seconds of the live threads of `root` and every live process under it, to the
 * nanosecond: the first field of /proc/PID/task/TID/schedstat (time on a CPU), where
 * treeCpuSeconds reads clock ticks (10 ms). For short measured spans — the blocks of a
 * block-interleaved comparison (compare-blocks.ts), ~0.3 CPU-s each, where a tick per
 * process would be a few % of noise. Threads that exited during the span are not counted:
 * spans are taken over long-lived pools.
 */
export function treeCpuPreciseSeconds(root: number): number {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while we looked
    }
  }
  let ns = 0;
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    while (p && p !== root && p !== 1) p = parent.get(p);
    if (p !== root) continue;
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      }
    } catch {
      // exited while we looked
    }
  }
  return ns / 1e9;
}
