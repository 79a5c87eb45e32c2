// One render worker process as the pool sees it: the child, the renders it holds in order,
// its timers, and how much it has done. Spawning wires the child's messages and exit to the
// pool; a worker that never finishes booting is killed and reported as an exit.
import { type ChildProcess, fork } from 'node:child_process';
import type { WorkerReply } from './protocol.ts';
import type { RenderOptions, RenderResult, SanitizedJob } from './types.ts';
import type { WorkerEntry } from './worker-entry.ts';

// A cold worker loads its code and libvips first (seconds on a loaded machine); that must
// not eat a render's limit, but a worker that never boots is a crash.
const BOOT_TIMEOUT_MS = 60_000;

export interface Task {
  id: number;
  kind: 'render' | 'sanitize';
  svg: string | Uint8Array;
  opts: RenderOptions;
  timeoutMs: number;
  resolve: (r: RenderResult | SanitizedJob) => void;
  reject: (e: Error) => void;
  started: number;
  /** Set once the task has been retried after its worker died. */
  retried?: boolean;
}

export interface Slot {
  child: ChildProcess;
  inFlight: Task[];
  timer: NodeJS.Timeout | null;
  rendered: number;
  rss: number;
  retiring: boolean;
  dead: boolean;
  /** Set when the worker reported it has loaded; time limits run from then on. */
  ready: boolean;
  bootTimer: NodeJS.Timeout | null;
  stderrTail: string;
}

export interface SlotEvents {
  onReply(msg: WorkerReply | { ready: true }): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
}

/** The parent's environment with the entry's additions and without what it drops. */
export function workerEnv(entry: WorkerEntry): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...entry.env };
  for (const name of entry.dropEnv) delete env[name];
  return env;
}

// The worker pins its fonts itself (worker-fonts.ts), so forking loads nothing more.
function forkWorker(entry: WorkerEntry): ChildProcess {
  return fork(entry.file, [], {
    execArgv: entry.execArgv,
    serialization: 'advanced',
    env: workerEnv(entry),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** A worker forked before any pool asked for it, with what it said in the meantime. */
interface EarlyWorker {
  child: ChildProcess;
  messages: (WorkerReply | { ready: true })[];
  exit: [number | null, NodeJS.Signals | null] | null;
  stderrTail: string;
}

const early = new Map<string, EarlyWorker>();
const entryKey = (entry: WorkerEntry) => [entry.file, ...entry.execArgv].join('\0');

/**
 * Forks a render worker now, for the first pool that spawns one with the same entry. A
 * one-shot command (`rubrica inspect`) calls this before it even loads its own code, so the
 * worker's boot (Node, libvips) overlaps everything the command does before its first render
 * instead of following it. Unclaimed, it holds nothing: unref'd, it exits with the process.
 */
export function prestartWorker(entry: WorkerEntry): number | undefined {
  const key = entryKey(entry);
  if (early.has(key)) return early.get(key)?.child.pid;
  const child = forkWorker(entry);
  const held: EarlyWorker = { child, messages: [], exit: null, stderrTail: '' };
  child.on('message', (msg: WorkerReply | { ready: true }) => held.messages.push(msg));
  child.on('exit', (code, signal) => {
    held.exit = [code, signal];
  });
  child.on('error', () => {
    held.exit ??= [null, null];
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    held.stderrTail = (held.stderrTail + s).slice(-2000);
  });
  child.unref();
  child.channel?.unref();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  early.set(key, held);
  return child.pid;
}

/** The prestarted worker for `entry`, detached from its holding listeners, if there is one. */
function claimEarly(entry: WorkerEntry): EarlyWorker | undefined {
  const key = entryKey(entry);
  const held = early.get(key);
  if (!held) return undefined;
  early.delete(key);
  for (const event of ['message', 'exit', 'error'] as const) held.child.removeAllListeners(event);
  held.child.stderr?.removeAllListeners('data');
  held.child.ref();
  held.child.channel?.ref();
  (held.child.stderr as { ref?: () => void } | null)?.ref?.();
  return held;
}

export function spawnSlot(entry: WorkerEntry, events: SlotEvents): Slot {
  const held = claimEarly(entry);
  const child = held?.child ?? forkWorker(entry);
  const slot: Slot = {
    child,
    inFlight: [],
    timer: null,
    rendered: 0,
    rss: 0,
    retiring: false,
    dead: false,
    ready: false,
    bootTimer: null,
    stderrTail: held?.stderrTail ?? '',
  };
  slot.bootTimer = setTimeout(() => {
    if (slot.ready || slot.dead) return;
    slot.child.kill('SIGKILL');
    events.onExit(null, 'SIGKILL');
  }, BOOT_TIMEOUT_MS);
  slot.bootTimer.unref(); // pending renders keep the process alive, not this timer
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    slot.stderrTail = (slot.stderrTail + s).slice(-2000);
  });
  child.on('message', (msg: WorkerReply | { ready: true }) => events.onReply(msg));
  child.on('exit', (code, signal) => events.onExit(code, signal));
  child.on('error', () => events.onExit(null, null));
  if (held) {
    // What the early worker said before it was claimed, delivered once the caller has the
    // slot (the pool registers it after this returns).
    setImmediate(() => {
      for (const msg of held.messages) events.onReply(msg);
      if (held.exit) events.onExit(...held.exit);
    });
  }
  return slot;
}

/** An idle worker must not keep the process alive (renderSvg's shared pool); a busy one must. */
export function setSlotRef(slot: Slot): void {
  const busy = slot.inFlight.length > 0;
  type Refable = { ref?: () => void; unref?: () => void } | null | undefined;
  const stderr = slot.child.stderr as Refable;
  const handles: Refable[] = [slot.child, slot.child.channel as Refable, stderr];
  for (const h of handles) (busy ? h?.ref : h?.unref)?.call(h);
}
