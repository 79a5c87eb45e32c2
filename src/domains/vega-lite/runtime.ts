// One vega runtime process (worker.mjs, forked with its own V8 heap limit). Vega runs the
// policy's spec — its expressions, transforms and generators — so a spec can drive V8 into
// its fatal out-of-memory error, which aborts the whole process it runs in. A worker thread
// does not contain that on Node 20 (resourceLimits or not, the abort takes the parent down:
// measured, issue 22), so the runtime is a child process and only it dies.
// The parent decides each job's outcome from what it observes: an answer bound to the job's
// id, or the process's exit (SIGABRT / 134 = V8 ran out of its heap), or silence past the
// limit (then the process is SIGKILLed). The child's stderr is kept only for messages.
import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { asRuntimeAnswer, type RuntimeAnswer } from './answer.ts';

export type { RuntimeAnswer };

// Loading vega and vega-lite takes a second or two on a loaded machine; that must not eat a
// job's limit, but a runtime that never boots is a fault.
const BOOT_TIMEOUT_MS = 60_000;

/** How a job ended when the runtime gave no answer for it. */
export type RuntimeFailure =
  | { failed: 'timeout' }
  | { failed: 'out_of_memory' }
  | { failed: 'died'; message: string };

export class VegaRuntime {
  readonly #child: ChildProcess;
  readonly ready: Promise<void>;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  #stderr = '';
  #nextId = 0;
  jobs = 0;

  constructor(heapMb: number) {
    this.#child = fork(fileURLToPath(new URL('./worker.mjs', import.meta.url)), [], {
      // Only the heap flags: never the parent's loaders (--import tsx) or NODE_OPTIONS. The
      // worker interprets expressions (no codegen); V8 refusing eval/Function enforces that.
      execArgv: [
        `--max-old-space-size=${heapMb}`,
        '--max-semi-space-size=16',
        '--disallow-code-generation-from-strings',
      ],
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.#child.on('exit', (code, signal) => {
      this.#exit = { code, signal };
    });
    this.#child.on('error', () => {});
    this.#child.stderr?.on('data', (b: Buffer) => {
      this.#stderr = (this.#stderr + b.toString('utf8')).slice(-2000);
    });
    this.#child.unref();
    (this.#child.stderr as Socket | null)?.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error(`the vega runtime did not start within ${BOOT_TIMEOUT_MS} ms`));
      }, BOOT_TIMEOUT_MS);
      const off = () => {
        clearTimeout(timer);
        this.#child.off('message', onMessage);
        this.#child.off('exit', onExit);
      };
      const onMessage = (m: unknown) => {
        if ((m as { ready?: boolean })?.ready === true) {
          off();
          this.#unrefChannel();
          resolve();
        }
      };
      const onExit = () => {
        off();
        reject(new Error(`the vega runtime exited while starting${this.#tail()}`));
      };
      this.#child.on('message', onMessage);
      this.#child.on('exit', onExit);
    });
    this.ready.catch(() => {});
  }

  get alive(): boolean {
    return this.#exit === null && !this.#child.killed;
  }

  #tail(): string {
    return this.#stderr ? `: ${this.#stderr.trim().slice(-300)}` : '';
  }

  #unrefChannel(): void {
    (this.#child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  /** One spec; resolves to the runtime's answer for this job, or how the job failed. */
  run(
    job: { spec: string; maxRows: number; assets?: Record<string, string> },
    timeoutMs: number,
  ): Promise<RuntimeAnswer | RuntimeFailure> {
    const id = this.#nextId++;
    this.jobs++;
    return new Promise((resolve) => {
      const done = (a: RuntimeAnswer | RuntimeFailure) => {
        clearTimeout(timer);
        this.#child.off('message', onMessage);
        this.#child.off('exit', onExit);
        this.#unrefChannel();
        resolve(a);
      };
      const timer = setTimeout(() => {
        this.kill();
        done({ failed: 'timeout' });
      }, timeoutMs);
      const onMessage = (m: { id?: unknown } | null) => {
        if (m?.id === id) done(asRuntimeAnswer(m));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        // V8's fatal out-of-memory error ends in abort(): SIGABRT, or 134 through a shell.
        if (signal === 'SIGABRT' || code === 134) done({ failed: 'out_of_memory' });
        else
          done({
            failed: 'died',
            message: `the vega runtime exited (${signal ?? `code ${code}`})${this.#tail()}`,
          });
      };
      if (!this.alive) {
        done({ failed: 'died', message: 'the vega runtime is gone' });
        return;
      }
      this.#child.on('message', onMessage);
      this.#child.on('exit', onExit);
      (this.#child.channel as { ref?: () => void } | undefined)?.ref?.();
      this.#child.send({ id, ...job }, (err) => {
        if (err)
          done({ failed: 'died', message: `the vega runtime is unreachable: ${err.message}` });
      });
    });
  }

  kill(): void {
    if (this.#exit === null) this.#child.kill('SIGKILL');
  }

  /** Ends the process: the channel closes (it exits on disconnect), killed if it lingers. */
  async close(): Promise<void> {
    if (this.#exit !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    if (this.#child.connected) this.#child.disconnect();
    const timer = setTimeout(() => this.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
