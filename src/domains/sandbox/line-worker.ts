// One warm sandboxed process speaking a framed protocol: the caller sends one job at a time,
// the process answers one line per job. Used for the Python zygote; the process does its own
// per-job isolation, this side only watches it: a process that dies or does not answer
// within the job's limit plus a grace period is killed (its whole process group; bwrap's
// --die-with-parent takes the pid namespace) and reported.
//
// Each answer is bound to its job (issue 22): the job goes out as "<n>\n" + n bytes of JSON,
// followed by "<nonce>\n", a fresh random nonce the process reads only after the job's code
// is dead (src/domains/python/harness.py), and the answer must be "<nonce> <json>". A line
// with another nonce, or any line while no job is waiting, is never taken as an answer: the
// waiting job (if any) fails and the worker is killed, so the next job starts on a fresh one.
//
// The worker's sandbox is one memory cgroup (memory-cgroup.ts): one job at a time, so the cap
// bounds the zygote plus the job's processes; a job during which the kernel killed a process
// for passing it fails as `memory`, whatever the process answered.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { DEFAULT_SANDBOX_LIMITS, type SandboxSpec, sandboxArgv } from './bwrap.ts';
import { MemoryCgroup } from './memory-cgroup.ts';

export type LineWorkerFailure = {
  failed: 'died' | 'unresponsive' | 'start' | 'protocol' | 'memory';
  message: string;
};

export class LineWorker {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #cgroup: MemoryCgroup | null;
  #cgroupRemoved: Promise<void> = Promise.resolve();
  readonly ready: Promise<void>;
  /** How the sandbox ended (bwrap passes its program's status on: a signal is 128 + it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #dead = false;
  #stderr = '';
  /** The one reader of the next line; null while no answer is expected. */
  #waiting: ((line: string | LineWorkerFailure) => void) | null = null;
  jobs = 0;

  constructor(spec: SandboxSpec, startTimeoutMs: number) {
    this.#cgroup = MemoryCgroup.create(
      spec.limits?.sandboxMemoryBytes ?? DEFAULT_SANDBOX_LIMITS.sandboxMemoryBytes,
    );
    const argv = this.#cgroup ? this.#cgroup.wrap(sandboxArgv(spec)) : sandboxArgv(spec);
    this.#child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe', detached: true, env: {} });
    this.exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => resolve({ code, signal }));
      this.#child.once('error', () => resolve({ code: null, signal: null }));
    });
    const gone = (message: string) => {
      this.#dead = true;
      this.#take({ failed: 'died', message });
    };
    // Its output's end is what fails a waiting job (an answer written just before exiting
    // is still read); the exit itself only marks the worker dead.
    this.#child.on('exit', () => {
      this.#dead = true;
      if (this.#cgroup) this.#cgroupRemoved = this.#cgroup.remove();
    });
    this.#child.on('error', (e) => gone(String(e)));
    this.#child.stdin.on('error', () => {});
    this.#child.stderr.on('data', (b: Buffer) => {
      this.#stderr = (this.#stderr + b.toString('utf8')).slice(-2000);
    });
    const lines = createInterface({ input: this.#child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (this.#waiting) this.#take(line);
      else this.#poison('a line no job was waiting for');
    });
    lines.on('close', () => gone(`the sandbox process exited${this.#tail()}`));
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

  #take(line: string | LineWorkerFailure): void {
    const w = this.#waiting;
    this.#waiting = null;
    w?.(line);
  }

  /** Something spoke out of turn: whatever it says is no job's answer; the worker ends. */
  #poison(why: string): void {
    this.#take({ failed: 'protocol', message: why });
    this.kill();
  }

  /** The next line, or a failure when the process dies or stays silent for `ms`. */
  async #next(ms: number): Promise<string | LineWorkerFailure> {
    if (this.#dead)
      return { failed: 'died', message: `the sandbox process is gone${this.#tail()}` };
    let timer: NodeJS.Timeout | undefined;
    const got = await new Promise<string | LineWorkerFailure>((resolve) => {
      this.#waiting = resolve;
      timer = setTimeout(
        () => this.#take({ failed: 'unresponsive', message: `no answer within ${ms} ms` }),
        ms,
      );
    });
    clearTimeout(timer);
    if (typeof got !== 'string') this.kill();
    return got;
  }

  /** Sends one job; resolves to the parsed answer or a failure (the worker is then dead). */
  async request(job: unknown, answerWithinMs: number): Promise<unknown | LineWorkerFailure> {
    if (this.#dead) return { failed: 'died', message: 'the sandbox process is gone' };
    this.jobs++;
    const body = Buffer.from(JSON.stringify(job));
    const nonce = randomBytes(16).toString('hex');
    const cg = this.#cgroup;
    const kills = cg?.oomKills() ?? 0;
    // The first kill over the cap decides the job: the worker, with everything the job
    // started, is replaced at once instead of thrashing at the cap until the timeout.
    let poll: NodeJS.Timeout | undefined;
    const over = new Promise<'memory'>((resolve) => {
      if (cg) poll = setInterval(() => cg.oomKills() > kills && resolve('memory'), 100);
    });
    const answer = this.#next(answerWithinMs);
    this.#child.stdin.write(Buffer.concat([Buffer.from(`${body.length}\n`), body]));
    this.#child.stdin.write(`${nonce}\n`);
    const line = await Promise.race([answer, over]);
    clearInterval(poll);
    if (line === 'memory' || (cg?.oomKills() ?? 0) > kills) {
      this.kill();
      return { failed: 'memory', message: 'the job went over the sandbox memory cap' };
    }
    if (typeof line !== 'string') return line;
    if (!line.startsWith(`${nonce} `)) {
      this.kill();
      return { failed: 'protocol', message: 'an answer not bound to this job' };
    }
    try {
      const parsed = JSON.parse(line.slice(nonce.length + 1)) as unknown;
      // The process says it ends after this answer (it could not clean up after the job):
      // mark it dead now, so the pool never hands it the next job while it exits.
      if (typeof parsed === 'object' && parsed !== null && 'retire' in parsed) this.kill();
      return parsed;
    } catch {
      this.kill();
      return { failed: 'protocol', message: 'the sandbox process answered garbage' };
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
