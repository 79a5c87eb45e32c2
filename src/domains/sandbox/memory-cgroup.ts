// One memory cgroup per sandbox: the cap on the memory of ALL its processes together (their
// pages, the tmpfs files they write, System V shared memory, kernel memory), which a
// per-process RLIMIT_AS cannot give (N processes × the limit; tmpfs pages count against no
// process). Made under rubrica's own cgroup (never at the hierarchy's root), entered by the
// sandbox's first process before it execs bwrap — so everything the job starts is inside —
// and removed when the sandbox is gone. cgroup v2 (memory.max, memory.events) or v1
// (memory.limit_in_bytes, memory.oom_control); when neither is writable (not root, no
// delegation), `memoryCgroupSupport()` is null and only the rlimits bound a job (see
// docs/domains.md, "Memory").
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { readEnv } from '../../core/env.ts';

export interface MemoryCgroupSupport {
  version: 1 | 2;
  /** The cgroup directory rubrica runs in; each sandbox gets a child of it. */
  parent: string;
}

/** What was found, and why there is no per-sandbox cgroup when there is none. */
export interface MemoryCgroupStatus {
  support: MemoryCgroupSupport | null;
  /** Where the parent was found (own cgroup, or RUBRICA_CGROUP_ROOT), or why none is usable. */
  reason: string;
}

let status: MemoryCgroupStatus | undefined;
let serial = 0;

const has = (dir: string, file: string) => existsSync(join(dir, file));
const words = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
};

/**
 * A cgroup v2 directory where children get the memory controller: it must list `memory` in
 * cgroup.controllers; if its subtree_control does not have it yet, rubrica turns it on
 * (`+memory`) — the kernel refuses that (EBUSY) when processes sit in the directory itself,
 * which is why a delegated subtree given as RUBRICA_CGROUP_ROOT should be an empty one.
 */
function v2At(dir: string): MemoryCgroupStatus {
  if (!words(join(dir, 'cgroup.controllers')).includes('memory')) {
    return {
      support: null,
      reason: `cgroup v2 at ${dir}: no memory controller in cgroup.controllers`,
    };
  }
  const control = join(dir, 'cgroup.subtree_control');
  if (!words(control).includes('memory')) {
    try {
      writeFileSync(control, '+memory');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      return {
        support: null,
        reason: `cgroup v2 at ${dir}: cannot enable +memory for children (${code}; a delegated subtree must hold no process itself)`,
      };
    }
  }
  return { support: { version: 2, parent: dir }, reason: `cgroup v2 at ${dir}` };
}

/**
 * The memory cgroup under a directory named by the operator (RUBRICA_CGROUP_ROOT): cgroup v2
 * when it has cgroup.controllers, v1 when it has memory.limit_in_bytes, none otherwise (an
 * empty or wrong directory means per-process limits only — never a guess).
 */
export function memoryCgroupAt(dir: string): MemoryCgroupStatus {
  if (has(dir, 'cgroup.controllers')) return v2At(dir);
  if (has(dir, 'memory.limit_in_bytes')) {
    return { support: { version: 1, parent: dir }, reason: `cgroup v1 at ${dir}` };
  }
  return {
    support: null,
    reason: `${dir} is neither a cgroup v2 directory (cgroup.controllers) nor a cgroup v1 memory one (memory.limit_in_bytes)`,
  };
}

/** Rubrica's own memory cgroup, from /proc/self/cgroup and /proc/self/mountinfo. */
export function findOwnMemoryCgroup(procCgroup: string, mountinfo: string): MemoryCgroupStatus {
  const lines = procCgroup.trim().split('\n');
  const mounts = mountinfo.trim().split('\n');
  // mountinfo: "id parent maj:min root mountpoint opts ... - fstype source superopts"
  const mountOf = (fstype: string, opt?: string) =>
    mounts
      .map((l) => l.split(' - '))
      .filter(([, tail]) => {
        const [fs, , sopts] = (tail ?? '').split(' ');
        return fs === fstype && (!opt || (sopts ?? '').split(',').includes(opt));
      })
      .map(([head]) => (head ?? '').split(' ')[4] ?? '')[0];
  const v1 = lines.find((l) => l.split(':')[1]?.split(',').includes('memory'));
  const v1Mount = mountOf('cgroup', 'memory');
  if (v1 && v1Mount) {
    const parent = join(v1Mount, v1.split(':').slice(2).join(':'));
    if (has(parent, 'memory.limit_in_bytes')) {
      return { support: { version: 1, parent }, reason: `cgroup v1 at ${parent}` };
    }
  }
  const v2 = lines.find((l) => l.startsWith('0::'));
  const v2Mount = mountOf('cgroup2');
  if (v2 && v2Mount) {
    // rubrica's own v2 cgroup holds rubrica itself, so the controller must already be on for
    // its children (a delegated subtree); it is not turned on here.
    const parent = join(v2Mount, v2.slice(3));
    if (words(join(parent, 'cgroup.subtree_control')).includes('memory')) {
      return { support: { version: 2, parent }, reason: `cgroup v2 at ${parent}` };
    }
    return {
      support: null,
      reason: `cgroup v2 at ${parent}: memory is not in cgroup.subtree_control (no delegated memory controller; set RUBRICA_CGROUP_ROOT to one)`,
    };
  }
  return { support: null, reason: 'no cgroup v1 memory controller and no cgroup v2 mount' };
}

function find(): MemoryCgroupStatus {
  const root = readEnv('RUBRICA_CGROUP_ROOT');
  if (root) return memoryCgroupAt(root);
  try {
    return findOwnMemoryCgroup(
      readFileSync('/proc/self/cgroup', 'utf8'),
      readFileSync('/proc/self/mountinfo', 'utf8'),
    );
  } catch {
    return { support: null, reason: 'cannot read /proc/self/cgroup' };
  }
}

/** The per-sandbox memory cgroup this process can make, or null and why (checked once). */
export function memoryCgroupStatus(): MemoryCgroupStatus {
  if (status === undefined) {
    status = find();
    const s = status.support;
    // Usable only if we may make a child here (root, or a delegated subtree).
    if (s) {
      const probe = join(s.parent, `rubrica-probe-${process.pid}`);
      try {
        mkdirSync(probe);
        rmdirSync(probe);
        sweep(s.parent);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? String(e);
        status = {
          support: null,
          reason: `${status.reason}: cannot make a child cgroup (${code})`,
        };
      }
    }
  }
  return status;
}

/** Where per-sandbox memory cgroups can be made, or null (then rlimits only). */
export function memoryCgroupSupport(): MemoryCgroupSupport | null {
  return memoryCgroupStatus().support;
}

/** Removes the empty cgroups of rubrica processes that ended without removing theirs. */
function sweep(parent: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^rubrica-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // its process is alive: its own
    } catch {
      // gone
    }
    try {
      rmdirSync(join(parent, name)); // fails (kept) while a process is still inside
    } catch {
      // busy
    }
  }
}

export class MemoryCgroup {
  readonly dir: string;
  readonly #version: 1 | 2;
  /** The last count read: still known after the cgroup is removed. */
  #kills = 0;
  #ooms = 0;

  private constructor(dir: string, version: 1 | 2) {
    this.dir = dir;
    this.#version = version;
  }

  /** A fresh cgroup capped at `bytes` (no swap), or null where cgroups are not usable. */
  static create(bytes: number): MemoryCgroup | null {
    const s = memoryCgroupSupport();
    return s ? MemoryCgroup.createIn(s, bytes) : null;
  }

  /**
   * A fresh child of `s.parent` capped at `bytes`, or null when the cap cannot be written
   * (then the sandbox must not count on it). On cgroup v2 it also sets memory.oom.group, so
   * an OOM kill takes every process of the sandbox at once (a job is never left half-killed,
   * its other processes still running), and memory.swap.max 0; both are best effort (an
   * older kernel lacks them), the cap itself is not.
   */
  static createIn(s: MemoryCgroupSupport, bytes: number): MemoryCgroup | null {
    const dir = join(s.parent, `rubrica-${process.pid}-${++serial}`);
    const optional = (file: string, value: string) => {
      try {
        writeFileSync(join(dir, file), value);
      } catch {
        // this kernel has no such file
      }
    };
    try {
      mkdirSync(dir);
      const cap = String(Math.floor(bytes));
      if (s.version === 1) {
        writeFileSync(join(dir, 'memory.limit_in_bytes'), cap);
        // With swap, the cap would only bound RAM; memsw bounds RAM + swap (absent: no swap).
        const memsw = join(dir, 'memory.memsw.limit_in_bytes');
        if (existsSync(memsw)) writeFileSync(memsw, cap);
      } else {
        writeFileSync(join(dir, 'memory.max'), cap);
        optional('memory.swap.max', '0');
        optional('memory.oom.group', '1');
      }
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // never made
      }
      return null;
    }
    return new MemoryCgroup(dir, s.version);
  }

  /**
   * The argv that moves its own process into this cgroup, then execs `argv`: everything the
   * sandbox ever starts descends from a process already inside. If the move fails the
   * sandbox does not start (fail closed).
   */
  wrap(argv: readonly string[]): string[] {
    const procs = join(this.dir, 'cgroup.procs');
    return ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', procs, ...argv];
  }

  /**
   * The kernel's OOM counters: `oom`, times the cap was hit and the kernel had to act, and
   * `oomKill`, processes it killed for it. cgroup v2 reads memory.events (its `oom` and
   * `oom_kill` lines), v1 memory.oom_control (`oom_kill`; v1 has no `oom` count, so it is
   * the kills). The last counts read stand after the cgroup is removed.
   */
  memoryEvents(): { oom: number; oomKill: number } {
    const file = this.#version === 1 ? 'memory.oom_control' : 'memory.events';
    try {
      const text = readFileSync(join(this.dir, file), 'utf8');
      const count = (key: string) =>
        Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      this.#kills = Math.max(this.#kills, count('oom_kill'));
      this.#ooms = Math.max(this.#ooms, this.#version === 1 ? this.#kills : count('oom'));
    } catch {
      // removed: the last counts read stand
    }
    return { oom: this.#ooms, oomKill: this.#kills };
  }

  /** How many processes the kernel killed for exceeding the cap so far. */
  oomKills(): number {
    return this.memoryEvents().oomKill;
  }

  #pids(): number[] {
    try {
      return readFileSync(join(this.dir, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILLs every process still in the cgroup, then removes it (retrying while busy). */
  async remove(): Promise<void> {
    this.oomKills();
    for (let i = 0; i < 50; i++) {
      for (const pid of this.#pids()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      try {
        this.oomKills();
        rmdirSync(this.dir);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        await new Promise((r) => setTimeout(r, 20 + i * 10));
      }
    }
  }
}
