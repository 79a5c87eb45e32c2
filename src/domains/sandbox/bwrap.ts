// The command line that runs policy-written code in a bubblewrap sandbox. Everything a render
// needs is read-only system files; everything else is absent (no /etc/passwd, no project, no
// $HOME), the network namespace is empty, the environment is cleared (API keys invisible), and
// the kernel enforces CPU, address-space, process, file-size and open-file limits (prlimit
// runs inside, so the limits bind the code and everything it starts). The only writable
// places are small private tmpfs (/work, /tmp, /dev/shm); / and /dev are read-only. The cap
// over all the sandbox's processes together is a memory cgroup, made by the runners
// (memory-cgroup.ts). See docs/domains.md.
import { existsSync } from 'node:fs';

export interface SandboxLimits {
  /** RLIMIT_CPU, seconds (SIGXCPU then SIGKILL). */
  cpuSeconds: number;
  /** RLIMIT_AS, bytes of address space per process. */
  memoryBytes: number;
  /** RLIMIT_NPROC: processes of the sandbox user (a fork bomb stops here). */
  processes: number;
  /** RLIMIT_FSIZE, bytes of one written file. */
  fileBytes: number;
  /** Size of each private tmpfs (/work, /tmp): the total the code can write. */
  tmpfsBytes: number;
  /** Size of the private /dev/shm tmpfs (POSIX shared memory, semaphores). */
  shmBytes: number;
  /**
   * Memory of the whole sandbox — every process, the tmpfs files, shared memory — as one
   * memory cgroup (memory-cgroup.ts); over it the kernel kills a process and the job is
   * `too_large`. Applied by the runners (run.ts, line-worker.ts), not by this argv.
   */
  sandboxMemoryBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  cpuSeconds: 20,
  memoryBytes: 2 * 1024 ** 3,
  processes: 64,
  fileBytes: 64 * 1024 ** 2,
  tmpfsBytes: 128 * 1024 ** 2,
  shmBytes: 16 * 1024 ** 2,
  sandboxMemoryBytes: 1024 ** 3,
});

export interface SandboxSpec {
  /** The program and its arguments, as seen inside the sandbox. */
  argv: readonly string[];
  /** Extra read-only binds: host path → path inside (harness scripts, TeX trees). */
  roBinds?: ReadonlyArray<{ host: string; path: string }>;
  /** Environment inside (on top of PATH, HOME, LANG, TMPDIR); nothing from the host leaks. */
  env?: Readonly<Record<string, string>>;
  limits?: Partial<SandboxLimits>;
  /**
   * Run the command itself as the namespace's pid 1 (no bwrap init between): when it exits,
   * the kernel kills everything else in the sandbox, and its CPU time reaches the caller's
   * accounting (through an init it is lost). For one-shot pipelines; the Python zygote keeps
   * bwrap's init, since it reaps and kills its jobs itself.
   */
  asPid1?: boolean;
}

/** The unprivileged user the sandbox runs as when rubrica itself runs as root. */
const NOBODY = 65534;

// System paths a renderer may read. /etc is NOT bound as a whole (it holds passwd, the host's
// configuration and sometimes secrets): only the font, matplotlib and TeX configuration.
const SYSTEM_RO: readonly string[] = [
  '/usr',
  '/etc/fonts',
  '/etc/matplotlibrc',
  '/etc/texmf',
  '/var/lib/texmf',
  '/etc/alternatives',
  // fontconfig's cache of the system fonts (issue 23): without it every process that asks
  // fontconfig for a font (dot through pango, LilyPond, pdftoppm, RDKit) scans every font
  // file again — measured 0.3 CPU-s of a 0.39 CPU-s sandboxed `dot`. Read-only, like /usr.
  '/var/cache/fontconfig',
  // The kernel's transparent-huge-page mode, read by glibc before it asks for huge pages
  // (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, see latex/renderer.ts); no /sys otherwise.
  '/sys/kernel/mm/transparent_hugepage',
];

export function sandboxArgv(spec: SandboxSpec): string[] {
  const lim = { ...DEFAULT_SANDBOX_LIMITS, ...spec.limits };
  const out: string[] = [];
  // bwrap cannot drop to another uid by itself; as root, setpriv does it first, so the
  // process limit counts an unprivileged user's processes and no capability survives.
  if (process.getuid?.() === 0) {
    out.push(
      'setpriv',
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      '--inh-caps=-all',
    );
  }
  out.push(
    'bwrap',
    '--unshare-all', // user, pid, net, ipc, uts, cgroup: no network at all
    ...(spec.asPid1 ? ['--as-pid-1'] : []),
    '--die-with-parent', // killing bwrap kills the sandbox's pid namespace
    '--new-session', // no TIOCSTI into the caller's terminal
    '--clearenv',
    '--cap-drop',
    'ALL',
  );
  for (const p of SYSTEM_RO) if (existsSync(p)) out.push('--ro-bind', p, p);
  out.push(
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/sbin',
    '/sbin',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // bwrap's /dev is a tmpfs as big as half the host's memory: /dev/shm gets its own small
    // one, and /dev itself (like the root) is made read-only below.
    '--size',
    String(lim.shmBytes),
    '--tmpfs',
    '/dev/shm',
    // POSIX message queues of the sandbox's own IPC namespace, visible so a warm worker can
    // remove a job's (each uid may queue at most RLIMIT_MSGQUEUE, 800 KiB, anyway).
    '--mqueue',
    '/dev/mqueue',
    '--size',
    String(lim.tmpfsBytes),
    '--tmpfs',
    '/work',
    '--size',
    String(lim.tmpfsBytes),
    '--tmpfs',
    '/tmp',
  );
  for (const b of spec.roBinds ?? []) out.push('--ro-bind', b.host, b.path);
  // The root and /dev are tmpfs that bwrap fills with mount points; once every mount exists
  // they are read-only, so the only writable places are the sized tmpfs /work, /tmp and
  // /dev/shm (a remount is not recursive: those stay writable).
  out.push('--remount-ro', '/dev', '--remount-ro', '/');
  const env: Record<string, string> = {
    PATH: '/usr/bin:/bin',
    HOME: '/work',
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    ...spec.env,
  };
  for (const [k, v] of Object.entries(env)) out.push('--setenv', k, v);
  out.push(
    '--chdir',
    '/work',
    '--',
    'prlimit',
    `--cpu=${lim.cpuSeconds}`,
    `--as=${lim.memoryBytes}`,
    `--nproc=${lim.processes}`,
    `--fsize=${lim.fileBytes}`,
    '--nofile=256',
    '--core=0',
    '--',
    ...spec.argv,
  );
  return out;
}
