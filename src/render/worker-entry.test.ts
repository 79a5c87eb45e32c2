// The worker's V8 flags: this Node accepts them (an unknown flag would stop every worker
// from booting), the heap cap is the one asked for, and the old generation starts large
// enough that a render's pixel buffers do not set off a full GC every few renders.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRenderPool } from './pool.ts';
import { workerEntry } from './worker-entry.ts';

function v8Limits(execArgv: string[]): { capMb: number; flags: string[] } {
  const flags = execArgv.filter((a) => a.startsWith('--') && a.includes('space'));
  const out = execFileSync(
    process.execPath,
    [
      ...flags,
      '-e',
      'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))',
    ],
    { encoding: 'utf8' },
  );
  return { capMb: Number(out) / 1048576, flags };
}

describe('workerEntry', () => {
  it('caps the heap and starts the old generation at a quarter of it, at most 64 MB', () => {
    const big = v8Limits(workerEntry(512).execArgv);
    expect(big.flags).toEqual(['--max-old-space-size=512', '--initial-old-space-size=64']);
    expect(big.capMb).toBeGreaterThanOrEqual(512);
    expect(big.capMb).toBeLessThan(700);
    const small = v8Limits(workerEntry(100).execArgv);
    expect(small.flags).toEqual(['--max-old-space-size=100', '--initial-old-space-size=25']);
    expect(small.capMb).toBeLessThan(300);
  });
});

describe('a pool worker', () => {
  it('runs with one libuv thread, single-threaded GC, and without the extra CA certificates Node would parse at start-up', async () => {
    const saved = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    const pool = createRenderPool({ workers: 1 });
    try {
      const r = await pool.render('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"/>');
      expect(r.ok).toBe(true);
      const pid = pool.stats().workers[0]?.pid;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain('UV_THREADPOOL_SIZE=1');
      expect(environ.some((v) => v.startsWith('NODE_EXTRA_CA_CERTS='))).toBe(false);
      // This Node accepts the flag (the worker booted and rendered with it) and the worker
      // runs with it: its scavenges do not wait on V8's helper threads.
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(argv).toContain('--single-threaded-gc');
    } finally {
      if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = saved;
      await pool.close();
    }
  });
});
