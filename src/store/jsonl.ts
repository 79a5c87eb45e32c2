// Crash-safe JSONL runs, shared by `rubric synth`, `score`, `generate` and `eval`:
// read an input file line by line (bad lines are values with a line number), open the
// output for appending after repairing a torn last line, skip ids already written, and
// write results in input order as they complete, one whole line per write.
import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import pLimit from 'p-limit';
import type { z } from 'zod';

export interface InputError {
  line: number;
  message: string;
}

/** Parses and validates every non-empty line; invalid ones come back as errors. */
export function readJsonlInputs<T>(
  path: string,
  schema: z.ZodType<T>,
): { items: T[]; errors: InputError[] } {
  const items: T[] = [];
  const errors: InputError[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [i, text] of lines.entries()) {
    if (!text.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      errors.push({ line: i + 1, message: 'not valid JSON' });
      continue;
    }
    const r = schema.safeParse(json);
    if (r.success) items.push(r.data);
    else {
      const issue = r.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      errors.push({ line: i + 1, message: `${where}${issue?.message ?? 'invalid line'}` });
    }
  }
  return { items, errors };
}

export interface JsonlOutput {
  readonly path: string;
  /** Ids found in the file when it was opened (already done). */
  readonly done: ReadonlySet<string>;
  /** Bytes cut off the end: a line torn by a crash mid-write. */
  readonly repairedBytes: number;
  append(record: { id: string }): void;
  close(): void;
}

/**
 * Opens `path` for appending. A last line without its newline can only be a write cut
 * short by a crash, so it is removed (its id is then redone); complete lines are kept.
 */
export function openJsonlOutput(path: string): JsonlOutput {
  const done = new Set<string>();
  let repairedBytes = 0;
  if (existsSync(path)) {
    const buf = readFileSync(path);
    const lastNl = buf.lastIndexOf(0x0a);
    const keep = lastNl + 1;
    if (keep < buf.length) {
      repairedBytes = buf.length - keep;
      truncateSync(path, keep);
    }
    for (const text of buf.subarray(0, keep).toString('utf8').split('\n')) {
      if (!text.trim()) continue;
      try {
        const id = (JSON.parse(text) as { id?: unknown }).id;
        if (typeof id === 'string') done.add(id);
      } catch {
        // A corrupt complete line is left in place for a human to see; its id is redone.
      }
    }
  }
  const fd = openSync(path, 'a');
  let open = true;
  return {
    path,
    done,
    repairedBytes,
    append(record) {
      // One writeSync per line: a crash can tear at most the last line, which the next
      // open repairs.
      writeSync(fd, `${JSON.stringify(record)}\n`);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

export interface JsonlRunOptions<I extends { id: string }, O extends { id: string }> {
  inputs: readonly I[];
  out: JsonlOutput;
  concurrency: number;
  process: (item: I) => Promise<O>;
  /** Called after each record is written, in input order. */
  onWritten?: (record: O) => void;
}

export interface JsonlRunResult {
  written: number;
  /** Inputs whose id was already in the output. */
  skippedDone: number;
  /** Inputs repeating an id seen earlier in the same input. */
  skippedDuplicate: number;
}

/** Processes the inputs not yet done, writing each result in input order. */
export async function runJsonl<I extends { id: string }, O extends { id: string }>(
  opts: JsonlRunOptions<I, O>,
): Promise<JsonlRunResult> {
  const seen = new Set<string>();
  const todo: I[] = [];
  let skippedDone = 0;
  let skippedDuplicate = 0;
  for (const item of opts.inputs) {
    if (seen.has(item.id)) skippedDuplicate++;
    else if (opts.out.done.has(item.id)) skippedDone++;
    else todo.push(item);
    seen.add(item.id);
  }
  const limit = pLimit(Math.max(1, opts.concurrency));
  const ready = new Map<number, O>();
  let next = 0;
  let written = 0;
  const flush = () => {
    while (ready.has(next)) {
      const rec = ready.get(next)!;
      ready.delete(next);
      opts.out.append(rec);
      written++;
      next++;
      opts.onWritten?.(rec);
    }
  };
  await Promise.all(
    todo.map((item, i) =>
      limit(async () => {
        ready.set(i, await opts.process(item));
        flush();
      }),
    ),
  );
  return { written, skippedDone, skippedDuplicate };
}
