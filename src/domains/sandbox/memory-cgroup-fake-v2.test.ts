// The cgroup v2 file operations of memory-cgroup.ts, run against a FAKE cgroupfs: a plain
// directory tree with the files the kernel would show. It proves which files rubrica reads
// and writes (memory.max, memory.oom.group, memory.swap.max, cgroup.subtree_control,
// cgroup.procs, memory.events), not what the kernel does with them — that is
// memory-cgroup-v2.slow.test.ts on a real cgroup2 mount, which says when it cannot run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOwnMemoryCgroup, MemoryCgroup, memoryCgroupAt } from './memory-cgroup.ts';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fake cgroup v2 directory: its controllers and what is on for its children. */
function fakeV2(controllers: string, subtree = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-cgroup2-'));
  made.push(dir);
  writeFileSync(join(dir, 'cgroup.controllers'), `${controllers}\n`);
  writeFileSync(join(dir, 'cgroup.subtree_control'), subtree);
  writeFileSync(join(dir, 'cgroup.procs'), '');
  return dir;
}

const read = (...p: string[]) => readFileSync(join(...p), 'utf8');

describe('memory cgroup v2 on a fake cgroupfs (plain files, not the kernel)', () => {
  it('takes a delegated subtree with the memory controller and turns it on for children', () => {
    const dir = fakeV2('cpu io memory pids');
    const s = memoryCgroupAt(dir);
    expect(s.support).toEqual({ version: 2, parent: dir });
    expect(read(dir, 'cgroup.subtree_control')).toBe('+memory');
  });

  it('refuses a v2 directory without the memory controller, and an empty directory', () => {
    const noMemory = memoryCgroupAt(fakeV2('cpu pids'));
    expect(noMemory.support).toBeNull();
    expect(noMemory.reason).toMatch(/no memory controller in cgroup\.controllers/);
    const empty = mkdtempSync(join(tmpdir(), 'fake-cgroup-empty-'));
    made.push(empty);
    expect(memoryCgroupAt(empty).support).toBeNull();
    expect(memoryCgroupAt(empty).reason).toMatch(/neither a cgroup v2 directory/);
  });

  it('a child per sandbox: memory.max, memory.oom.group 1, memory.swap.max 0', () => {
    const dir = fakeV2('memory', 'memory');
    const cg = MemoryCgroup.createIn({ version: 2, parent: dir }, 64 * 1024 ** 2)!;
    expect(cg.dir.startsWith(join(dir, `rubrica-${process.pid}-`))).toBe(true);
    expect(read(cg.dir, 'memory.max')).toBe(String(64 * 1024 ** 2));
    expect(read(cg.dir, 'memory.oom.group')).toBe('1');
    expect(read(cg.dir, 'memory.swap.max')).toBe('0');
  });

  it('the wrapped command writes its own pid to cgroup.procs before it execs', () => {
    const dir = fakeV2('memory', 'memory');
    const cg = MemoryCgroup.createIn({ version: 2, parent: dir }, 1024 ** 2)!;
    const argv = cg.wrap(['/bin/sh', '-c', 'echo $$']);
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    expect(r.status).toBe(0);
    // The same process wrote it and then became the command (exec, no fork in between).
    expect(read(cg.dir, 'cgroup.procs').trim()).toBe(r.stdout.trim());
    expect(Number(r.stdout.trim())).toBe(r.pid);
  });

  it('reads oom and oom_kill from memory.events, and keeps them after removal', async () => {
    const dir = fakeV2('memory', 'memory');
    const cg = MemoryCgroup.createIn({ version: 2, parent: dir }, 1024 ** 2)!;
    writeFileSync(join(cg.dir, 'memory.events'), 'low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n');
    expect(cg.memoryEvents()).toEqual({ oom: 0, oomKill: 0 });
    writeFileSync(
      join(cg.dir, 'memory.events'),
      'low 0\nhigh 0\nmax 7\noom 2\noom_kill 3\noom_group_kill 1\n',
    );
    expect(cg.memoryEvents()).toEqual({ oom: 2, oomKill: 3 });
    expect(cg.oomKills()).toBe(3);
    // The kernel empties a cgroup's files with it; a plain directory needs them removed.
    for (const f of ['memory.events', 'memory.max', 'memory.oom.group', 'memory.swap.max']) {
      rmSync(join(cg.dir, f));
    }
    writeFileSync(join(cg.dir, 'cgroup.procs'), '');
    rmSync(join(cg.dir, 'cgroup.procs'));
    await cg.remove();
    expect(cg.memoryEvents()).toEqual({ oom: 2, oomKill: 3 });
  });

  it('finds its own delegated v2 cgroup from /proc/self/cgroup and mountinfo', () => {
    const mount = mkdtempSync(join(tmpdir(), 'fake-cgroup2-mount-'));
    made.push(mount);
    mkdirSync(join(mount, 'job'));
    const mountinfo = `41 31 0:38 / ${mount} rw,relatime - cgroup2 cgroup2 rw\n`;
    const none = findOwnMemoryCgroup('0::/job\n', mountinfo);
    expect(none.support).toBeNull();
    expect(none.reason).toMatch(/not in cgroup\.subtree_control.*RUBRICA_CGROUP_ROOT/);
    writeFileSync(join(mount, 'job', 'cgroup.subtree_control'), 'cpu memory\n');
    expect(findOwnMemoryCgroup('0::/job\n', mountinfo).support).toEqual({
      version: 2,
      parent: join(mount, 'job'),
    });
  });
});
