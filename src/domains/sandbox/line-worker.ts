// One warm sandboxed process speaking JSON lines: the caller writes one job per line, the
// process answers one result per line, one job at a time. Used for the Python zygote; the
// process does its own per-job isolation, this side only watches it: a process that dies
// or does not answer within the job's limit plus a grace period is killed (its whole
// process group; bwrap's --die-with-parent takes the pid namespace) and reported.
// The worker's sandbox is one memory cgroup (memory-cgroup.ts): one job at a time, so the cap
// bounds the zygote plus the job's processes; a job during which the kernel killed a process
// for passing it fails as `memory`, whatever the process answered.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DEFAULT_SANDBOX_LIMITS, type SandboxSpec, sandboxArgv } from './bwrap.ts';
import { MemoryCgroup } from './memory-cgroup.ts';

export type LineWorkerFailure = {
  failed: 'died' | 'unresponsive' | 'start' | 'memory';
  message: string;
};

export class LineWorker {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;
  readonly #cgroup: MemoryCgroup | null;
  #cgroupRemoved: Promise<void> = Promise.resolve();
  readonly ready: Promise<void>;
  #dead = false;
  #stderr = '';
  jobs = 0;

  constructor(spec: SandboxSpec, startTimeoutMs: number) {
    this.#cgroup = MemoryCgroup.create(
      spec.limits?.sandboxMemoryBytes ?? DEFAULT_SANDBOX_LIMITS.sandboxMemoryBytes,
    );
    const argv = this.#cgroup ? this.#cgroup.wrap(sandboxArgv(spec)) : sandboxArgv(spec);
    this.#child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe', detached: true, env: {} });
    this.#child.on('exit', () => {
      this.#dead = true;
      if (this.#cgroup) this.#cgroupRemoved = this.#cgroup.remove();
    });
    this.#child.on('error', () => {
      this.#dead = true;
    });
    this.#child.stdin.on('error', () => {});
    this.#child.stderr.on('data', (b: Buffer) => {
      this.#stderr = (this.#stderr + b.toString('utf8')).slice(-2000);
    });
    this.#lines = createInterface({ input: this.#child.stdout, crlfDelay: Infinity })[
      Symbol.asyncIterator
    ]();
    this.ready = this.#next(startTimeoutMs).then((r) => {
      if (typeof r !== 'string') throw new Error(`${r.message}${this.#tail()}`);
    });
  }

  get alive(): boolean {
    return !this.#dead;
  }

  #tail(): string {
    return this.#stderr ? `: ${this.#stderr.trim().slice(-600)}` : '';
  }

  /** The next line, or a failure when the process dies or stays silent for `ms`. */
  async #next(ms: number): Promise<string | LineWorkerFailure> {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<LineWorkerFailure>((resolve) => {
      timer = setTimeout(
        () => resolve({ failed: 'unresponsive', message: `no answer within ${ms} ms` }),
        ms,
      );
    });
    const line = this.#lines.next().then(
      (r): string | LineWorkerFailure =>
        r.done ? { failed: 'died', message: `the sandbox process exited${this.#tail()}` } : r.value,
      (e: unknown): LineWorkerFailure => ({ failed: 'died', message: String(e) }),
    );
    const got = await Promise.race([line, silent]);
    clearTimeout(timer);
    if (typeof got !== 'string') this.kill();
    return got;
  }

  /** Sends one job; resolves to the parsed answer or a failure (the worker is then dead). */
  async request(job: unknown, answerWithinMs: number): Promise<unknown | LineWorkerFailure> {
    if (this.#dead) return { failed: 'died', message: 'the sandbox process is gone' };
    this.jobs++;
    const cg = this.#cgroup;
    const kills = cg?.oomKills() ?? 0;
    // The first kill over the cap decides the job: the worker, with everything the job
    // started, is replaced at once instead of thrashing at the cap until the timeout.
    let poll: NodeJS.Timeout | undefined;
    const over = new Promise<'memory'>((resolve) => {
      if (cg) poll = setInterval(() => cg.oomKills() > kills && resolve('memory'), 100);
    });
    this.#child.stdin.write(`${JSON.stringify(job)}\n`);
    const line = await Promise.race([this.#next(answerWithinMs), over]);
    clearInterval(poll);
    if (line === 'memory' || (cg?.oomKills() ?? 0) > kills) {
      this.kill();
      return { failed: 'memory', message: 'the job went over the sandbox memory cap' };
    }
    if (typeof line !== 'string') return line;
    try {
      return JSON.parse(line) as unknown;
    } catch {
      this.kill();
      return { failed: 'died', message: 'the sandbox process answered garbage' };
    }
  }

  kill(): void {
    this.#dead = true;
    try {
      if (this.#child.pid !== undefined) process.kill(-this.#child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Ends the process: stdin closed (it exits at EOF), killed if it lingers. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) {
      await this.#cgroupRemoved;
      return;
    }
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.stdin.end();
    const timer = setTimeout(() => this.kill(), 2000);
    await exited;
    clearTimeout(timer);
    await this.#cgroupRemoved;
  }
}

export function isFailure(x: unknown): x is LineWorkerFailure {
  return typeof x === 'object' && x !== null && 'failed' in x;
}
