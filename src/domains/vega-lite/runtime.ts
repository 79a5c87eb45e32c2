// One vega runtime process: worker.mjs under node, inside the same bubblewrap sandbox as every
// other domain (sandbox-spec.ts: no network, no host files but node and the packages it
// loads, an empty environment, its own memory cgroup), run as a LineWorker (line-worker.ts):
// one job at a time on stdin, one answer line per job bound to it by a nonce.
// Vega runs the policy's spec — its expressions, transforms and generators — so a spec can
// drive V8 into its fatal out-of-memory error, which aborts the process it runs in (a worker
// thread does not contain that on Node 20: measured, issue 22), so the runtime is a process
// and only it dies. The parent decides each job's outcome from what it observes: an answer
// bound to the job, the process's exit (SIGABRT, 134 through bwrap: V8 ran out of its heap),
// a kill by the kernel over the sandbox's memory cap, or silence past the limit (then the
// whole sandbox is SIGKILLed).
import { isFailure, LineWorker } from '../sandbox/line-worker.ts';
import { asRuntimeAnswer, type RuntimeAnswer } from './answer.ts';
import { type VegaSandboxOptions, vegaSandboxSpec } from './sandbox-spec.ts';

export type { RuntimeAnswer };

// Loading vega and vega-lite takes a second or two on a loaded machine; that must not eat a
// job's limit, but a runtime that never boots is a fault.
const BOOT_TIMEOUT_MS = 60_000;
/** How long a dead runtime's exit status is awaited after its output closed. */
const EXIT_WAIT_MS = 2_000;

/** How a job ended when the runtime gave no answer for it. */
export type RuntimeFailure =
  | { failed: 'timeout' }
  /** V8's heap limit (the runtime aborted). */
  | { failed: 'out_of_memory' }
  /** The kernel killed a process of the sandbox over its memory cgroup's cap. */
  | { failed: 'memory_cap' }
  | { failed: 'died'; message: string };

export class VegaRuntime {
  readonly #worker: LineWorker;
  readonly ready: Promise<void>;

  constructor(opts: VegaSandboxOptions) {
    this.#worker = new LineWorker(vegaSandboxSpec(opts), BOOT_TIMEOUT_MS);
    this.ready = this.#worker.ready.catch((e: Error) => {
      this.#worker.kill();
      throw new Error(`the vega runtime did not start: ${e.message}`);
    });
    this.ready.catch(() => {});
  }

  get alive(): boolean {
    return this.#worker.alive;
  }

  get jobs(): number {
    return this.#worker.jobs;
  }

  /** One spec; resolves to the runtime's answer for this job, or how the job failed. */
  async run(
    job: { spec: string; maxRows: number; assets?: Record<string, string> },
    timeoutMs: number,
  ): Promise<RuntimeAnswer | RuntimeFailure> {
    const a = await this.#worker.request(job, timeoutMs);
    if (!isFailure(a)) return asRuntimeAnswer(a);
    if (a.failed === 'unresponsive') return { failed: 'timeout' };
    if (a.failed === 'memory') return { failed: 'memory_cap' };
    if (a.failed === 'died') {
      let timer: NodeJS.Timeout | undefined;
      const status = await Promise.race([
        this.#worker.exited,
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), EXIT_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      // V8's fatal out-of-memory error ends in abort(): SIGABRT, 134 once bwrap passes it on.
      if (status && (status.signal === 'SIGABRT' || status.code === 134)) {
        return { failed: 'out_of_memory' };
      }
    }
    return { failed: 'died', message: `the vega runtime ${a.failed}: ${a.message}` };
  }

  kill(): void {
    this.#worker.kill();
  }

  /** Ends the process: stdin closes (it exits at EOF), killed if it lingers. */
  close(): Promise<void> {
    return this.#worker.close();
  }
}
