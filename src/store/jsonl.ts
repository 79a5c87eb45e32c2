// Crash-safe, resumable JSONL outputs, shared by `rubric synth`, `score`, `generate` and
// `eval`. Opening an output takes its lock (one writer), repairs a line torn by a crash,
// and streams the file once to learn which ids are done and which ended in a grader fault
// (those are redone). The runner streams its input with a bounded window, writes results
// in input order as they complete (one whole line per write), and stops at once when
// interrupted. A run that redid ids leaves the old lines behind until compact() rewrites the
// file with one line per id (the newest), through a temp file and a rename: a crash at any
// point leaves either the old file or the new one, never a partial one.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { RubricaError } from '../core/errors.ts';
import type { InputError, InputItem } from './jsonl-input.ts';
import { readLines } from './jsonl-lines.ts';
import { isBadLine, parseJsonLine, readJsonlSync } from './jsonl-values.ts';
import { lockOutput, type OutputLock } from './lock.ts';

export type { InputError, InputItem } from './jsonl-input.ts';
export { ExactIdSchema, JsonlFormatError, readJsonlFile, readJsonlItems } from './jsonl-input.ts';

/**
 * Parses and validates every non-empty line of a small file (the `export sft` inputs);
 * invalid ones come back as errors. Batch commands stream with readJsonlItems instead.
 */
export function readJsonlInputs<T>(
  path: string,
  schema: z.ZodType<T>,
): { items: T[]; errors: InputError[] } {
  const items: T[] = [];
  const { values, bad } = readJsonlSync(path, { badLines: 'collect' });
  const errors: InputError[] = bad.map((b) => ({ line: b.line, message: b.reason }));
  for (const { line, value } of values) {
    const r = schema.safeParse(value);
    if (r.success) items.push(r.data);
    else {
      const issue = r.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      errors.push({ line, message: `${where}${issue?.message ?? 'invalid line'}` });
    }
  }
  // In file order, as they were reported before bad JSON and bad shapes were read apart.
  errors.sort((a, b) => a.line - b.line);
  return { items, errors };
}

/** `--out` cannot be used as given (a directory where a file is expected, …). */
export class OutputPathError extends RubricaError<'bad_output_path'> {
  constructor(message: string) {
    super('bad_output_path', message);
  }
}

/** A run stopped by its signal (Ctrl-C): what was written is kept; the CLI exits 130. */
export class RunInterruptedError extends RubricaError<'interrupted'> {
  constructor(message: string) {
    super('interrupted', message);
  }
}

export interface OpenOutputOptions {
  /** True for a record that must be produced again (a grader fault): its id is not done. */
  redo?: (record: Record<string, unknown>) => boolean;
  /** Take the output's lock (default true). */
  lock?: boolean;
}

export interface JsonlOutput {
  readonly path: string;
  /** Ids whose newest line in the file is final. */
  readonly done: ReadonlySet<string>;
  /** Ids whose newest line must be redone (grader faults). */
  readonly redo: ReadonlySet<string>;
  /** Bytes cut off the end: a line torn by a crash mid-write. */
  readonly repairedBytes: number;
  /** Set when a stale lock of a dead run was taken over: that run's pid. */
  readonly tookOverFrom: number | null;
  /** True when some id has more than one line (a redone id, or an older run's leftovers). */
  readonly needsCompaction: boolean;
  append(record: { id: string }, rawId?: number): void;
  /** Rewrites the file with one line per id (the newest, where the first was). Returns lines removed. */
  compact(): Promise<number>;
  close(): void;
}

interface IdEntry {
  /** Line number of the id's first line. */
  first: number;
  /** Byte offset and length of its newest line. */
  off: number;
  len: number;
  lines: number;
  /** The newest line must be redone (read from the file on open). */
  redo: boolean;
}

export function keyOf(id: unknown): string | null {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return null;
}

function specialKind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (a pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function checkOutputPath(path: string): void {
  let st: Stats | undefined;
  try {
    st = statSync(path);
  } catch {}
  if (st?.isDirectory())
    throw new OutputPathError(
      `--out ${path} is a directory; give a file path such as ${path.replace(/(?<!\/)\/+$/, '')}/out.jsonl`,
    );
  // An output is read back before it is appended to (resume): a FIFO there waited for a
  // writer for ever, a socket cannot be opened, a device never ends (issue 35). /dev/null is
  // the one special file an output may be (nothing to resume).
  if (st && !st.isFile() && path !== '/dev/null')
    throw new OutputPathError(`--out ${path} is ${specialKind(st)}, not a regular file`);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    throw new OutputPathError(
      `cannot create the folder of --out ${path}: ${(err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'a file is in the way' : (err as Error).message}`,
    );
  }
}

/**
 * Opens `path` for appending (creating its folder). A last line without its newline can
 * only be a write cut short by a crash, so it is removed (its id is then redone).
 */
export async function openJsonlOutput(
  path: string,
  opts: OpenOutputOptions = {},
): Promise<JsonlOutput> {
  checkOutputPath(path);
  const lock: OutputLock | null = opts.lock === false ? null : lockOutput(path);
  try {
    return await openLocked(path, opts, lock);
  } catch (err) {
    lock?.release();
    throw err;
  }
}

async function openLocked(
  path: string,
  opts: OpenOutputOptions,
  lock: OutputLock | null,
): Promise<JsonlOutput> {
  const index = new Map<string, IdEntry>();
  let repairedBytes = 0;
  let size = 0;
  let lineCount = 0;
  let multi = false;
  let exists = true;
  try {
    statSync(path);
  } catch {
    exists = false;
  }
  if (exists) {
    for await (const l of readLines(path)) {
      if (!l.terminated) {
        repairedBytes = l.bytes;
        break;
      }
      lineCount = l.line;
      size = l.start + l.bytes + 1;
      if (!l.text?.trim()) continue;
      const parsed = parseJsonLine(l.line, l.text);
      // A corrupt complete line stays for a human to see; its id is redone.
      if (isBadLine(parsed)) continue;
      const rec = parsed.value as Record<string, unknown>;
      const key = keyOf(rec?.id);
      if (key === null) continue;
      const redo = opts.redo?.(rec) ?? false;
      const e = index.get(key);
      if (e) {
        e.off = l.start;
        e.len = l.bytes;
        e.lines++;
        e.redo = redo;
        multi = true;
      } else index.set(key, { first: l.line, off: l.start, len: l.bytes, lines: 1, redo });
    }
    if (repairedBytes) truncateSync(path, size);
  }
  const done = new Set<string>();
  const redo = new Set<string>();
  for (const [k, e] of index) (e.redo ? redo : done).add(k);

  let fd: number | null = openSync(path, 'a');
  const out: JsonlOutput = {
    path,
    done,
    redo,
    repairedBytes,
    tookOverFrom: lock?.tookOverFrom ?? null,
    get needsCompaction() {
      return multi;
    },
    append(record, rawId) {
      if (fd === null) throw new Error(`${path} is closed`);
      const rec = rawId === undefined ? record : { ...record, id: rawId };
      const buf = Buffer.from(`${JSON.stringify(rec)}\n`);
      // One write per line: a crash can tear at most the last line, which the next open
      // repairs.
      writeSync(fd, buf);
      lineCount++;
      const e = index.get(record.id);
      if (e) {
        e.off = size;
        e.len = buf.length - 1;
        e.lines++;
        multi = true;
      } else
        index.set(record.id, {
          first: lineCount,
          off: size,
          len: buf.length - 1,
          lines: 1,
          redo: false,
        });
      size += buf.length;
    },
    async compact() {
      if (!multi) return 0;
      if (fd !== null) {
        fsyncSync(fd);
        closeSync(fd);
        fd = null;
      }
      const removed = await rewriteOnePerId(path, index);
      multi = false;
      fd = openSync(path, 'a');
      return removed;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
      lock?.release();
    },
  };
  return out;
}

async function rewriteOnePerId(path: string, index: Map<string, IdEntry>): Promise<number> {
  const tmp = `${path}.compact-${process.pid}.tmp`;
  const src = openSync(path, 'r');
  const dst = openSync(tmp, 'w');
  let removed = 0;
  try {
    for await (const l of readLines(path)) {
      if (!l.terminated) break; // cannot happen: the file was repaired on open
      let keep = true;
      let from = l.start;
      let len = l.bytes;
      if (l.text?.trim()) {
        const parsed = parseJsonLine(l.line, l.text);
        const key = isBadLine(parsed) ? null : keyOf((parsed.value as { id?: unknown } | null)?.id);
        const e = key === null ? undefined : index.get(key);
        if (e && e.lines > 1) {
          // The newest line goes where the id first appeared; later lines are dropped.
          if (l.line === e.first) {
            from = e.off;
            len = e.len;
          } else keep = false;
        }
      }
      if (!keep) {
        removed++;
        continue;
      }
      const buf = Buffer.alloc(len + 1);
      readSync(src, buf, 0, len, from);
      buf[len] = 0x0a;
      writeSync(dst, buf);
    }
    fsyncSync(dst);
  } finally {
    closeSync(src);
    closeSync(dst);
  }
  renameSync(tmp, path);
  // The rename itself must reach the disk too.
  try {
    const dir = openSync(dirname(path), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {}
  for (const e of index.values()) e.lines = 1;
  return removed;
}

export type JsonlSource<I> =
  | AsyncIterable<InputItem<I> | { line: number; error: string }>
  | Iterable<InputItem<I> | { line: number; error: string }>;

export interface JsonlRunOptions<I extends { id: string }, O extends { id: string }> {
  source: JsonlSource<I>;
  out: JsonlOutput;
  concurrency: number;
  process: (item: I) => Promise<O>;
  /** Called after each record is written, in input order. */
  onWritten?: (record: O) => void;
  /** Called for each input whose id is already done. */
  onSkipped?: () => void;
  /** Called for each bad input line (invalid, duplicate id). */
  onInputError?: (e: InputError) => void;
  /** Stops taking new inputs and returns at once; results still in flight are dropped. */
  signal?: AbortSignal;
  /**
   * Stops taking new inputs, but writes the results in flight before returning (SIGTERM: a
   * requeued Slurm task or a rescheduled pod then re-asks nothing that was already asked).
   * `signal` still stops the run at once, drain or not.
   */
  drain?: AbortSignal;
}

export interface JsonlRunResult {
  written: number;
  /** Inputs whose id was already done in the output. */
  skippedDone: number;
  /** Inputs redone because their line recorded a grader fault. */
  retried: number;
  inputErrors: number;
  /** True when the signal (or the drain) stopped the run before every input was written. */
  interrupted: boolean;
}

/** Wraps a list of items as a run source (line numbers are positions). */
export function itemsSource<I extends { id: string }>(items: readonly I[]): InputItem<I>[] {
  return items.map((item, i) => ({ line: i + 1, item }));
}

/** Processes the inputs not yet done, writing each result in input order. */
export async function runJsonl<I extends { id: string }, O extends { id: string }>(
  opts: JsonlRunOptions<I, O>,
): Promise<JsonlRunResult> {
  const limit = Math.max(1, opts.concurrency);
  // Results finished out of order wait for the head; the window bounds that memory.
  const window = Math.max(16, limit * 4);
  const res: JsonlRunResult = {
    written: 0,
    skippedDone: 0,
    retried: 0,
    inputErrors: 0,
    interrupted: false,
  };
  const ready = new Map<number, { rec: O; rawId?: number }>();
  const seen = new Set<string>();
  let nextIndex = 0;
  let nextWrite = 0;
  let active = 0;
  let pending = 0;
  let stopped = false;
  let failure: { err: unknown } | null = null;
  let exhausted = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const halted = () => opts.signal?.aborted === true || failure !== null;
  // Halted, or draining: no new input is started either way.
  const closing = () => halted() || opts.drain?.aborted === true;
  opts.signal?.addEventListener('abort', notify, { once: true });
  opts.drain?.addEventListener('abort', notify, { once: true });
  const waitTurn = () =>
    new Promise<void>((r) => {
      wake = r;
    });
  const flush = () => {
    while (!stopped && ready.has(nextWrite)) {
      const { rec, rawId } = ready.get(nextWrite)!;
      ready.delete(nextWrite);
      opts.out.append(rec, rawId);
      res.written++;
      pending--;
      nextWrite++;
      opts.onWritten?.(rec);
    }
  };
  const start = (x: InputItem<I>, idx: number) => {
    active++;
    pending++;
    opts.process(x.item).then(
      (rec) => {
        active--;
        if (stopped || halted()) return notify();
        ready.set(idx, { rec, rawId: x.rawId });
        try {
          flush();
        } catch (err) {
          failure ??= { err };
        }
        notify();
      },
      (err: unknown) => {
        active--;
        failure ??= { err };
        notify();
      },
    );
  };
  try {
    for await (const x of opts.source) {
      if (closing()) break;
      if ('error' in x) {
        res.inputErrors++;
        opts.onInputError?.({ line: x.line, message: x.error });
        continue;
      }
      const id = x.item.id;
      if (seen.has(id)) continue; // sources report duplicates; never write one twice
      seen.add(id);
      if (opts.out.done.has(id)) {
        res.skippedDone++;
        opts.onSkipped?.();
        continue;
      }
      if (opts.out.redo.has(id)) res.retried++;
      while ((active >= limit || pending >= window) && !closing()) await waitTurn();
      if (closing()) break;
      start(x, nextIndex++);
    }
    exhausted = !closing();
    // Draining waits here for what is in flight; a halt does not.
    while (pending > 0 && !halted()) await waitTurn();
  } finally {
    stopped = true;
    opts.signal?.removeEventListener('abort', notify);
    opts.drain?.removeEventListener('abort', notify);
  }
  if (failure) throw (failure as { err: unknown }).err;
  const stoppedEarly = opts.signal?.aborted === true || opts.drain?.aborted === true;
  res.interrupted = stoppedEarly && (!exhausted || pending > 0);
  return res;
}
