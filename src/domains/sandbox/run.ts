// Runs one sandboxed command to completion: code in on stdin, bytes out on stdout (bounded),
// the tail of stderr kept for messages. On the wall-clock limit the whole process group is
// SIGKILLed; bwrap's --die-with-parent then takes the sandbox's pid namespace with it, so no
// descendant survives. Never rejects: a sandbox that cannot start is `sandbox_error`.
// The whole run is in its own memory cgroup where one can be made (memory-cgroup.ts): the
// kernel kills a process when all of them together pass the cap, and the run says so.
import { spawn } from 'node:child_process';
import { DEFAULT_SANDBOX_LIMITS, type SandboxSpec, sandboxArgv } from './bwrap.ts';
import { MemoryCgroup } from './memory-cgroup.ts';

export interface SandboxRunOptions {
  input?: string | Buffer;
  timeoutMs: number;
  /** stdout beyond this many bytes kills the run (`too_large`). */
  maxStdoutBytes?: number;
  signal?: AbortSignal;
}

export interface SandboxRun {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** Last STDERR_TAIL bytes of stderr. */
  stderr: string;
  timedOut: boolean;
  tooLarge: boolean;
  /** The kernel killed a process of the run for passing the sandbox's memory cap. */
  memoryExceeded: boolean;
  /** The sandbox itself failed to start (spawn error). */
  spawnError?: string;
  ms: number;
}

const STDERR_TAIL = 4096;

export function runSandboxed(spec: SandboxSpec, opts: SandboxRunOptions): Promise<SandboxRun> {
  const started = performance.now();
  const cap = spec.limits?.sandboxMemoryBytes ?? DEFAULT_SANDBOX_LIMITS.sandboxMemoryBytes;
  const cgroup = MemoryCgroup.create(cap);
  const argv = cgroup ? cgroup.wrap(sandboxArgv(spec)) : sandboxArgv(spec);
  const maxOut = opts.maxStdoutBytes ?? 64 * 1024 ** 2;
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group, killed as one
      env: {}, // bwrap clears it anyway; nothing of ours reaches even bwrap
    });
    const chunks: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let timedOut = false;
    let tooLarge = false;
    let spawnError: string | undefined;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    // The first kill over the memory cap decides the run: end it now, not at the timeout.
    const poll = cgroup && setInterval(() => cgroup.oomKills() > 0 && kill(), 100);
    const onAbort = () => kill();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxOut) {
        tooLarge = true;
        kill();
        return;
      }
      chunks.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.stdin.on('error', () => {}); // the code may exit before reading all its input
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      opts.signal?.removeEventListener('abort', onAbort);
      const memoryExceeded = (cgroup?.oomKills() ?? 0) > 0;
      await cgroup?.remove();
      resolve({
        code,
        signal,
        stdout: Buffer.concat(chunks),
        stderr: err,
        timedOut,
        tooLarge,
        memoryExceeded,
        ...(spawnError === undefined ? {} : { spawnError }),
        ms: performance.now() - started,
      });
    });
    child.stdin.end(opts.input ?? '');
  });
}
