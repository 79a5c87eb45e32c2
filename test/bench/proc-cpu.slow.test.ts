// The block-interleaved comparison (bench/compare-blocks.ts) reads each block's CPU from
// /proc/*/task/*/schedstat, to the nanosecond, where treeCpuSeconds reads 10 ms ticks. These
// check the reading counts a child process and resolves under a tick; no timing
// bound on how fast anything runs (CPU time burnt on purpose is what is compared).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatInterval, ratioInterval } from '../../bench/compare-stats.ts';
import { treeCpuPreciseSeconds } from '../../bench/proc-cpu.ts';

const burn = (ms: number) => {
  const u0 = process.cpuUsage();
  for (;;) {
    const u = process.cpuUsage(u0);
    if (u.user + u.system >= ms * 1000) return;
  }
};

describe('treeCpuPreciseSeconds', () => {
  it('resolves CPU under a clock tick in this process', () => {
    const a = treeCpuPreciseSeconds(process.pid);
    burn(3);
    const b = treeCpuPreciseSeconds(process.pid);
    // 3 ms of CPU is under one 10 ms tick: the tick reading can miss it, this one cannot.
    expect(b - a).toBeGreaterThanOrEqual(0.003);
    expect(b - a).toBeLessThan(1);
  });

  it('counts a live child process and its threads', async () => {
    const before = treeCpuPreciseSeconds(process.pid);
    const script =
      'const u0=process.cpuUsage();for(;;){const u=process.cpuUsage(u0);if(u.user+u.system>=150000)break}' +
      'process.stdout.write("done");setInterval(()=>{},1000)';
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('child did not burn its CPU in 30 s')),
          30_000,
        );
        child.stdout.once('data', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      // The child's 150 ms of CPU is in the tree's reading while it lives.
      expect(treeCpuPreciseSeconds(process.pid) - before).toBeGreaterThanOrEqual(0.15);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('formatInterval', () => {
  it('names the unit the interval is over (block pairs for --blocks)', () => {
    const iv = ratioInterval([1.05, 1.06, 1.04], [1, 1, 1]);
    expect(formatInterval(iv, 'block pair')).toMatch(/over 3 block pairs: slower$/);
    expect(formatInterval(iv)).toMatch(/over 3 rounds: slower$/);
  });
});
