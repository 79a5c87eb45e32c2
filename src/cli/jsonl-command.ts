// The shared body of the CLI's resumable JSONL commands (`rubric synth`, `score`): take
// the output's lock, repair a torn last line, stream the input (bad lines and duplicate ids
// reported with line numbers), skip ids already done, redo ids whose line is a grader
// fault, write in input order with progress, leave one line per id, and on Ctrl-C restore
// the terminal, keep what was written and say how to resume. It returns what the caller
// needs to decide its exit code; `finishJsonlCommand` prints that verdict.
import type { z } from 'zod';
import { readEnv } from '../core/env.ts';
import type { Usage } from '../core/usage.ts';
import {
  type InputItem,
  type JsonlRunResult,
  OutputPathError,
  openJsonlOutput,
  RunInterruptedError,
  readJsonlItems,
  runJsonl,
} from '../store/jsonl.ts';
import { countNonBlankLines } from '../store/jsonl-lines.ts';
import { badLineMessage } from '../store/jsonl-values.ts';
import { OutputLockedError } from '../store/lock.ts';
import { createRunProgress } from '../store/progress.ts';
import { inShard, type ShardSpec } from '../store/shard.ts';
import { endShard, type ShardStart, startShard } from './shard-start.ts';
import { UsageError } from './usage-error.ts';

export { RunInterruptedError as InterruptedError } from '../store/jsonl.ts';

/**
 * Runs `fn` with a signal that Ctrl-C (SIGINT) or SIGTERM aborts, instead of killing the
 * process: the run stops taking work, keeps what it wrote, and the terminal is restored by
 * the caller's finally blocks. A second Ctrl-C kills as usual.
 *
 * A caller that can drain (`fn` uses its second argument) gets SIGTERM as a drain instead:
 * what Slurm sends before it requeues or preempts a task, and Kubernetes before it moves a
 * pod. The run stops taking work but finishes the calls in flight (their answers written and
 * cached), for up to RUBRICA_DRAIN_SECONDS (25 s; both send SIGKILL 30 s after SIGTERM); then,
 * or at a second signal, or at Ctrl-C, it stops at once.
 */
export async function withInterrupt<T>(
  fn: (signal: AbortSignal, drain: AbortSignal) => Promise<T>,
  opts: { drain?: boolean } = {},
): Promise<T> {
  const ac = new AbortController();
  const drain = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSignal = () => ac.abort();
  const onTerm = () => {
    if (!opts.drain || drain.signal.aborted) return ac.abort();
    drain.abort();
    const seconds = drainSeconds();
    process.stderr.write(
      `rubrica: SIGTERM: finishing the calls in flight (up to ${seconds} s; signal again to stop now)\n`,
    );
    timer = setTimeout(() => ac.abort(), seconds * 1000);
    timer.unref();
    process.once('SIGTERM', onTerm); // the next one stops at once
  };
  // Once each: after the stop, a second Ctrl-C (or SIGTERM) kills as usual.
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onTerm);
  try {
    return await fn(ac.signal, drain.signal);
  } finally {
    clearTimeout(timer);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onTerm);
  }
}

/** RUBRICA_DRAIN_SECONDS, else 25; a value that is not a number ≥ 0 is refused by name. */
function drainSeconds(): number {
  const raw = readEnv('RUBRICA_DRAIN_SECONDS');
  if (raw === undefined || raw === '') return 25;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(
      `rubrica: RUBRICA_DRAIN_SECONDS=${raw} is not a number of seconds; using 25\n`,
    );
    return 25;
  }
  return n;
}

/** Printed bad input lines before the rest are only counted. */
const MAX_PRINTED_ERRORS = 20;

export interface JsonlCommandOptions<I extends { id: string }, O extends { id: string }, S> {
  inPath: string;
  outPath: string;
  schema: z.ZodType<I>;
  /** An example input line, shown when the file is not JSONL. */
  example: string;
  /** Label of the progress bar, and the plural noun in messages. */
  label: string;
  noun: string;
  concurrency: number;
  process: (item: I) => Promise<O>;
  /** The grader fault a written record ended in, or null. */
  faultOf: (record: NoInfer<O>) => string | null;
  /** The same test on a line read back from the output: true means "do it again". */
  redo: (line: Record<string, unknown>) => boolean;
  /** What the summary needs of a record (records are not all kept: inputs can be huge). */
  slim: (record: NoInfer<O>) => S;
  usageOf: (record: NoInfer<O>) => Usage;
  /** Do only this shard's ids, and record it beside the output (docs/sharding.md). */
  shard?: ShardStart;
}

export interface JsonlCommandResult<S> extends JsonlRunResult {
  /** Slim copies of the records written in this run, in input order. */
  records: S[];
  /** Grader faults among the records written in this run, by reason. */
  faults: Record<string, number>;
}

function openError(err: unknown): never {
  // Mistakes with --out are one clear line (exit 2), not a stack trace.
  if (err instanceof OutputLockedError || err instanceof OutputPathError)
    throw new UsageError(err.message);
  throw err;
}

export async function runJsonlCommand<I extends { id: string }, O extends { id: string }, S>(
  opts: JsonlCommandOptions<I, O, S>,
): Promise<JsonlCommandResult<S>> {
  let total: number;
  try {
    total = await countNonBlankLines(opts.inPath);
  } catch (err) {
    throw new UsageError(`--in ${opts.inPath}: ${(err as Error).message}`);
  }
  const out = await openJsonlOutput(opts.outPath, { redo: opts.redo }).catch(openError);
  if (out.tookOverFrom !== null)
    process.stderr.write(
      `rubrica: took over the lock of ${opts.outPath} from pid ${out.tookOverFrom}, which is no longer running\n`,
    );
  if (out.repairedBytes)
    process.stderr.write(`rubrica: repaired a torn last line in ${opts.outPath}\n`);
  const shard = opts.shard ? await startShard(opts.shard, opts.inPath, opts.outPath) : null;
  const records: S[] = [];
  // A shard's share is about 1/N of the lines (the hash spreads ids evenly).
  const progress = createRunProgress(
    opts.label,
    opts.shard ? Math.round(total / opts.shard.count) : total,
    opts.shard ? { estimated: true } : {},
  );
  let printed = 0;
  let badLines = 0;
  try {
    const r = await withInterrupt(
      (signal, drain) =>
        runJsonl({
          source: onlyShard(
            readJsonlItems(opts.inPath, opts.schema, { example: opts.example }),
            opts.shard,
          ),
          out,
          concurrency: opts.concurrency,
          process: opts.process,
          signal,
          drain,
          onSkipped: () => progress.skip(),
          onInputError: (e) => {
            badLines++;
            if (printed++ < MAX_PRINTED_ERRORS)
              process.stderr.write(`rubrica: ${badLineMessage(opts.inPath, e.line, e.message)}\n`);
          },
          onWritten: (rec) => {
            records.push(opts.slim(rec));
            progress.tick(opts.usageOf(rec), opts.faultOf(rec));
          },
        }),
      { drain: true },
    );
    progress.stop();
    if (badLines > MAX_PRINTED_ERRORS)
      process.stderr.write(
        `rubrica: … and ${badLines - MAX_PRINTED_ERRORS} more bad lines in ${opts.inPath} (${badLines} in all)\n`,
      );
    // One line per id: a redone id's old line is replaced where it stood.
    const removed = await out.compact();
    if (removed)
      process.stderr.write(
        `rubrica: rewrote ${opts.outPath} with one line per id (${removed} older lines replaced)\n`,
      );
    if (shard) endShard(opts.outPath, shard, !r.interrupted);
    if (r.interrupted) {
      out.close();
      throw new RunInterruptedError(
        `interrupted: ${r.written} ${opts.noun} written this run to ${opts.outPath} (${r.skippedDone} were done before); run the same command again to resume`,
      );
    }
    if (r.skippedDone)
      process.stdout.write(`skipped ${r.skippedDone} ${opts.noun} already in ${opts.outPath}\n`);
    if (r.retried)
      process.stdout.write(
        `redid ${r.retried} ${opts.noun} whose earlier line was a grader fault\n`,
      );
    return { ...r, records, faults: { ...progress.faults } };
  } finally {
    progress.stop();
    out.close();
  }
}

/** Bad lines pass (every shard reports them, as one run would); items only when theirs. */
async function* onlyShard<I extends { id: string }>(
  source: AsyncIterable<InputItem<I> | { line: number; error: string }>,
  shard: ShardSpec | undefined,
): AsyncGenerator<InputItem<I> | { line: number; error: string }> {
  for await (const x of source) if (!shard || !('item' in x) || inShard(x.item.id, shard)) yield x;
}

/**
 * The last line of a batch command: exit 1 (with the reasons) when input lines were bad,
 * when any item ended in a grader fault, or when nothing could be scored.
 */
export function finishJsonlCommand(
  r: { faults: Record<string, number>; inputErrors: number; written: number },
  opts: { noun: string; inPath: string; nothing?: string | null },
  setExit: (code: number) => void,
): void {
  const why: string[] = [];
  const nFaults = Object.values(r.faults).reduce((a, b) => a + b, 0);
  if (nFaults)
    why.push(
      `${nFaults} of ${r.written} ${opts.noun} ended in a grader fault (${Object.entries(r.faults)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}); run the same command again to retry them`,
    );
  if (opts.nothing) why.push(opts.nothing);
  if (r.inputErrors) why.push(`${r.inputErrors} lines of ${opts.inPath} could not be used`);
  if (why.length) {
    process.stderr.write(`rubrica: exit 1: ${why.join('; ')}\n`);
    setExit(1);
  }
}
