// The per-sandbox memory cgroup on this machine: made under rubrica's own cgroup, entered by
// the wrapped command before it execs, counts the kernel's kills over the cap, and is gone
// after remove(). Real cgroup, real processes (rubrica runs as root here, like CI).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryCgroup, memoryCgroupSupport } from './memory-cgroup.ts';

describe('MemoryCgroup', () => {
  it('caps the wrapped command and its children together, and counts the kill', async () => {
    expect(memoryCgroupSupport()).not.toBeNull();
    const cg = MemoryCgroup.create(64 * 1024 ** 2)!;
    expect(cg.dir.startsWith(memoryCgroupSupport()!.parent)).toBe(true);
    // Two processes of 40 MB each: under any per-process limit, over the cap together.
    const hog =
      'import os\nb = bytearray(40 * 10**6)\nfor i in range(0, len(b), 4096): b[i] = 1\nif os.fork():\n    os.wait()\nelse:\n    c = bytearray(40 * 10**6)\n    for i in range(0, len(c), 4096): c[i] = 1';
    const argv = cg.wrap(['/usr/bin/python3', '-c', hog]);
    spawnSync(argv[0]!, argv.slice(1));
    expect(cg.oomKills()).toBeGreaterThan(0);
    await cg.remove();
    expect(existsSync(cg.dir)).toBe(false);
    expect(cg.oomKills()).toBeGreaterThan(0); // still known after removal
  });

  it('leaves an honest command alone', async () => {
    const cg = MemoryCgroup.create(256 * 1024 ** 2)!;
    const argv = cg.wrap(['/bin/sh', '-c', 'grep -c rubrica- /proc/self/cgroup']);
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('1'); // it ran inside the new cgroup
    expect(cg.oomKills()).toBe(0);
    await cg.remove();
  });
});
