// The per-sandbox memory cap on a REAL cgroup v2 hierarchy: a fresh `mount -t cgroup2`, a
// delegated subtree under it, rubrica's cgroup inside, a process over the cap killed by the
// kernel and counted from memory.events. A controller bound to a cgroup v1 hierarchy cannot
// appear in v2 (the kernel lists it in no cgroup.controllers), so on a v1 machine the memory
// test cannot run: it is then skipped with the reason in its name and printed, never passed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryCgroup, memoryCgroupAt } from './memory-cgroup.ts';

const mount = mkdtempSync(join(tmpdir(), 'rubrica-cgroup2-'));
const mounted = spawnSync('mount', ['-t', 'cgroup2', 'none', mount], { encoding: 'utf8' });
const controllers = mounted.status === 0 ? readControllers() : [];
const why =
  mounted.status !== 0
    ? `mount -t cgroup2 failed here: ${mounted.stderr.trim() || `exit ${mounted.status}`}`
    : !controllers.includes('memory')
      ? `no usable cgroup v2 memory controller on this machine (cgroup2 controllers: ${controllers.join(' ') || 'none'}; memory is bound to cgroup v1)`
      : '';
if (why) console.log(`cgroup v2 memory test SKIPPED: ${why}`);

function readControllers(): string[] {
  return readFileSync(join(mount, 'cgroup.controllers'), 'utf8').split(/\s+/).filter(Boolean);
}

afterAll(() => {
  if (mounted.status === 0) spawnSync('umount', [mount]);
  rmSync(mount, { recursive: true, force: true });
});

describe('memory cgroup on a real cgroup v2 mount', () => {
  it('mounts cgroup2 and reads which controllers it offers (the skip below is decided here)', () => {
    expect(mounted.status, mounted.stderr).toBe(0);
    expect(existsSync(join(mount, 'cgroup.procs'))).toBe(true);
    console.log(`cgroup2 controllers on this machine: ${controllers.join(' ') || 'none'}`);
  });

  it.skipIf(why !== '')(
    `caps a delegated subtree's sandbox, the kernel kills over it, memory.events counts it${why ? ` (SKIPPED: ${why})` : ''}`,
    async () => {
      // The delegated subtree: empty of processes, so +memory may be turned on for its children.
      const subtree = join(mount, `rubrica-test-${process.pid}`);
      mkdirSync(subtree);
      try {
        const status = memoryCgroupAt(subtree);
        expect(status.support, status.reason).toEqual({ version: 2, parent: subtree });
        const cg = MemoryCgroup.createIn(status.support!, 64 * 1024 ** 2)!;
        expect(readFileSync(join(cg.dir, 'memory.max'), 'utf8').trim()).toBe(
          String(64 * 1024 ** 2),
        );
        expect(readFileSync(join(cg.dir, 'memory.oom.group'), 'utf8').trim()).toBe('1');
        // Two processes of 40 MB: under any per-process limit, over the cap together.
        const hog =
          'import os\nb = bytearray(40 * 10**6)\nfor i in range(0, len(b), 4096): b[i] = 1\nif os.fork():\n    os.wait()\nelse:\n    c = bytearray(40 * 10**6)\n    for i in range(0, len(c), 4096): c[i] = 1';
        const argv = cg.wrap(['/usr/bin/python3', '-c', hog]);
        spawnSync(argv[0]!, argv.slice(1), { timeout: 30_000 });
        const events = cg.memoryEvents();
        expect(events.oom).toBeGreaterThan(0);
        expect(events.oomKill).toBeGreaterThan(0);
        await cg.remove();
        expect(existsSync(cg.dir)).toBe(false);
      } finally {
        rmdirSync(subtree);
      }
    },
    40_000,
  );
});
