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

export interface MemoryCgroupSupport {
  version: 1 | 2;
  /** The cgroup directory rubrica runs in; each sandbox gets a child of it. */
  parent: string;
}

let support: MemoryCgroupSupport | null | undefined;
let serial = 0;

function find(): MemoryCgroupSupport | null {
  let lines: string[];
  let mounts: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
    mounts = readFileSync('/proc/self/mountinfo', 'utf8').trim().split('\n');
  } catch {
    return null;
  }
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
    if (existsSync(join(parent, 'memory.limit_in_bytes'))) return { version: 1, parent };
  }
  const v2 = lines.find((l) => l.startsWith('0::'));
  const v2Mount = mountOf('cgroup2');
  if (v2 && v2Mount) {
    const parent = join(v2Mount, v2.slice(3));
    try {
      const on = readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
      if (on.includes('memory')) return { version: 2, parent };
    } catch {
      // no memory controller delegated here
    }
  }
  return null;
}

/** Where per-sandbox memory cgroups can be made, or null (then rlimits only). */
export function memoryCgroupSupport(): MemoryCgroupSupport | null {
  if (support === undefined) {
    support = find();
    // Usable only if we may make a child here (root, or a delegated subtree).
    if (support) {
      const probe = join(support.parent, `rubrica-probe-${process.pid}`);
      try {
        mkdirSync(probe);
        rmdirSync(probe);
      } catch {
        support = null;
      }
    }
    if (support) sweep(support.parent);
  }
  return support;
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

  private constructor(dir: string, version: 1 | 2) {
    this.dir = dir;
    this.#version = version;
  }

  /** A fresh cgroup capped at `bytes` (no swap), or null where cgroups are not usable. */
  static create(bytes: number): MemoryCgroup | null {
    const s = memoryCgroupSupport();
    if (!s) return null;
    const dir = join(s.parent, `rubrica-${process.pid}-${++serial}`);
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
        const swap = join(dir, 'memory.swap.max');
        if (existsSync(swap)) writeFileSync(swap, '0');
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

  /** How many processes the kernel killed for exceeding the cap so far. */
  oomKills(): number {
    const file = this.#version === 1 ? 'memory.oom_control' : 'memory.events';
    try {
      const m = /^oom_kill (\d+)$/m.exec(readFileSync(join(this.dir, file), 'utf8'));
      if (m) this.#kills = Math.max(this.#kills, Number(m[1]));
    } catch {
      // removed: the last count read stands
    }
    return this.#kills;
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
