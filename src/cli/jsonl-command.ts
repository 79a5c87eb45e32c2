// The shared body of the CLI's resumable JSONL commands (`rubric synth`, `score`): open
// the output (repairing a torn last line), skip ids already written, process the rest
// with a progress bar, write in input order, and say what was skipped.
import type { Usage } from '../core/usage.ts';
import { openJsonlOutput, runJsonl } from '../store/jsonl.ts';
import { createRunProgress } from '../store/progress.ts';

export interface JsonlCommandOptions<I extends { id: string }, O extends { id: string }> {
  inputs: readonly I[];
  inPath: string;
  outPath: string;
  /** Label of the progress bar, and the plural noun in the skip messages. */
  label: string;
  noun: string;
  concurrency: number;
  process: (item: I) => Promise<O>;
}

/** Runs the command's items; returns the records written in this run, in input order. */
export async function runJsonlCommand<
  I extends { id: string },
  O extends { id: string; usage: Usage },
>(opts: JsonlCommandOptions<I, O>): Promise<O[]> {
  const out = openJsonlOutput(opts.outPath);
  if (out.repairedBytes)
    process.stderr.write(`rubrica: repaired a torn last line in ${opts.outPath}\n`);
  const written: O[] = [];
  const todo = opts.inputs.filter((i) => !out.done.has(i.id)).length;
  const progress = createRunProgress(opts.label, todo);
  try {
    const r = await runJsonl({
      inputs: opts.inputs,
      out,
      concurrency: opts.concurrency,
      process: opts.process,
      onWritten: (rec) => {
        written.push(rec);
        progress.tick(rec.usage);
      },
    });
    progress.stop();
    if (r.skippedDone)
      process.stdout.write(`skipped ${r.skippedDone} ${opts.noun} already in ${opts.outPath}\n`);
    if (r.skippedDuplicate)
      process.stdout.write(`skipped ${r.skippedDuplicate} repeated ids in ${opts.inPath}\n`);
    return written;
  } finally {
    progress.stop();
    out.close();
  }
}
