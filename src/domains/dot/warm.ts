// A warm, sandboxed `dot -Tpng` that draws job after job (issue 23: the one-shot sandbox cost
// 2–7× an unsandboxed `dot`, most of it starting dot — loading cairo, pango and fontconfig —
// and the sandbox around it, every file). Graphviz reads graphs from its input one after
// another and writes each PNG as soon as the graph is read, so one process serves many jobs:
//
//   job text, "\n", then a marker graph  →  the job's PNG(s), then the marker's PNG
//
// The marker's PNG is learnt at start (the first thing the process draws); a job's answer is
// every PNG before the next marker PNG: the first is its picture, none means dot drew nothing
// (no graph in the input, or one too large for a bitmap: dot's stderr says which). Any
// "Error" line from dot, a timeout, output over the limit, a kill over the memory cap or a
// dead process ends the worker: it is replaced before its next job, so a parser left in an
// error state never reads another job. Only texts that end outside strings, comments and
// braces come here (complete.ts); a worker is also replaced after `maxJobs` jobs.
// Graphviz runs no code of the graph's; the sandbox (bwrap.ts) is the same as the one-shot's.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { makeError } from '../../core/errors.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxSpec, sandboxArgv } from '../sandbox/bwrap.ts';
import { MemoryCgroup } from '../sandbox/memory-cgroup.ts';
import type { DomainRender } from '../types.ts';

/** The graph sent after every job; its picture marks the end of the job's output. */
export const MARKER_GRAPH = 'digraph rubrica_end_of_job { rubrica_end_of_job [shape=point] }\n';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Splits complete PNG files off the front of `buf`; returns them and the rest. */
export function takePngs(buf: Buffer): { pngs: Buffer[]; rest: Buffer; garbage: boolean } {
  const pngs: Buffer[] = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 8) break;
    if (!buf.subarray(at, at + 8).equals(PNG_SIGNATURE)) return { pngs, rest: buf, garbage: true };
    let p = at + 8;
    let end = -1;
    while (buf.length - p >= 12) {
      const len = buf.readUInt32BE(p);
      const type = buf.toString('latin1', p + 4, p + 8);
      const next = p + 12 + len;
      if (next > buf.length) break;
      p = next;
      if (type === 'IEND') {
        end = p;
        break;
      }
    }
    if (end < 0) break;
    pngs.push(buf.subarray(at, end));
    at = end;
  }
  return { pngs, rest: buf.subarray(at), garbage: false };
}

type Outcome =
  | { ok: true; pngs: Buffer[]; stderr: string }
  | {
      ok: false;
      code: 'timeout' | 'too_large' | 'exec_error' | 'sandbox_error';
      message: string;
      stderr: string;
    };

/** One warm sandboxed `dot -Tpng` process, one job at a time (see the top of this file). */
export class WarmDot {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #cgroup: MemoryCgroup | null;
  readonly ready: Promise<void>;
  #out: Buffer = Buffer.alloc(0);
  #stderr = '';
  #pngs: Buffer[] = [];
  #marker: Buffer | null = null;
  #dead = false;
  #wake: (() => void) | null = null;
  jobs = 0;

  constructor(spec: SandboxSpec, startTimeoutMs: number) {
    this.#cgroup = MemoryCgroup.create(
      spec.limits?.sandboxMemoryBytes ?? DEFAULT_SANDBOX_LIMITS.sandboxMemoryBytes,
    );
    const argv = this.#cgroup ? this.#cgroup.wrap(sandboxArgv(spec)) : sandboxArgv(spec);
    this.#child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe', detached: true, env: {} });
    this.#child.on('exit', () => {
      this.#dead = true;
      void this.#cgroup?.remove();
      this.#poke();
    });
    this.#child.on('error', () => {
      this.#dead = true;
      this.#poke();
    });
    this.#child.stdin.on('error', () => {});
    this.#child.stdout.on('data', (b: Buffer) => {
      this.#out = this.#out.length ? Buffer.concat([this.#out, b]) : b;
      const got = takePngs(this.#out);
      this.#out = got.rest;
      this.#pngs.push(...got.pngs);
      if (got.garbage) this.kill();
      this.#poke();
    });
    this.#child.stderr.on('data', (b: Buffer) => {
      this.#stderr = (this.#stderr + b.toString('utf8')).slice(-4000);
      this.#poke();
    });
    const child = this.#child;
    this.ready = (async () => {
      child.stdin.write(MARKER_GRAPH);
      const deadline = performance.now() + startTimeoutMs;
      while (this.#pngs.length === 0) {
        if (this.#dead || performance.now() > deadline) {
          this.kill();
          throw new Error(`the warm dot did not start: ${this.#stderr.trim().slice(-300)}`);
        }
        await this.#change(deadline - performance.now());
      }
      this.#marker = this.#pngs.shift()!;
      this.#stderr = '';
    })();
    this.ready.catch(() => {});
  }

  get alive(): boolean {
    return !this.#dead;
  }

  #poke(): void {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  /** Resolves on the next output, exit or `ms`. */
  #change(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, Math.max(1, ms));
      this.#wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** One job: its PNGs (possibly none), or how it failed (the worker is then dead). */
  async run(code: string, timeoutMs: number, maxBytes: number): Promise<Outcome> {
    this.jobs++;
    this.#stderr = '';
    this.#pngs = [];
    const kills = this.#cgroup?.oomKills() ?? 0;
    const deadline = performance.now() + timeoutMs;
    this.#child.stdin.write(code.endsWith('\n') ? code : `${code}\n`);
    this.#child.stdin.write(MARKER_GRAPH);
    const fail = (c: Extract<Outcome, { ok: false }>['code'], message: string): Outcome => {
      this.kill();
      return { ok: false, code: c, message, stderr: this.#stderr };
    };
    for (;;) {
      const at = this.#pngs.findIndex((p) => p.equals(this.#marker!));
      if ((this.#cgroup?.oomKills() ?? 0) > kills) {
        return fail('too_large', 'dot went over the sandbox memory cap');
      }
      if (/(^|\n)Error/.test(this.#stderr)) {
        // dot's parser may be left in an error state: this worker reads no other job.
        await this.#change(30);
        return fail('exec_error', `dot failed:\n${this.#stderr.trim().slice(-1500)}`);
      }
      if (at >= 0) {
        // dot wrote its warnings (stderr) before the picture (stdout), but the two pipes are
        // read apart: let what is already in the stderr pipe arrive before answering.
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (/(^|\n)Error/.test(this.#stderr)) continue;
        const pngs = this.#pngs.slice(0, at);
        const extra = this.#pngs.length > at + 1 || this.#out.length > 0;
        this.#pngs = [];
        // Anything after the marker is no job's: the worker ends (the answer stands).
        if (extra) this.kill();
        return { ok: true, pngs, stderr: this.#stderr };
      }
      const bytes = this.#pngs.reduce((s, p) => s + p.length, 0) + this.#out.length;
      if (bytes > maxBytes) return fail('too_large', 'dot output over the size limit');
      if (this.#dead) {
        return fail('exec_error', `dot exited mid-job:\n${this.#stderr.trim().slice(-1500)}`);
      }
      const left = deadline - performance.now();
      if (left <= 0) return fail('timeout', `dot ran over ${timeoutMs} ms`);
      await this.#change(Math.min(left, 100));
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

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.kill();
    await exited;
  }
}

/** The DomainRender of a warm job, before dot's refusals are named (renderer.ts). */
export function warmFailure(o: Extract<Outcome, { ok: false }>, ms: number): DomainRender {
  const tail = o.stderr.trim().slice(-1500);
  return {
    ok: false,
    error: makeError(o.code, o.message),
    ms,
    notes: tail ? { stderrTail: tail } : {},
  };
}
