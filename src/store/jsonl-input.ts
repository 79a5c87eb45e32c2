// The input side of the batch commands: stream a JSONL file as validated items, keeping
// each id exactly as written. Rules (docs/rubrics-and-judging.md, "Input files"):
//  - an id is a non-empty string or an integer JSON number within ±(2^53−1); a bigger or
//    fractional number cannot be told apart from its neighbours once parsed, so the line is
//    rejected and the user is told to quote it;
//  - ids are compared by their text, so `1` and `"1"` are the same id: the second is a
//    duplicate, reported, never merged silently; a numeric id is written back as a number;
//  - duplicate ids: the first line is used, every later line with that id is skipped and
//    reported with both line numbers (one policy for score, rubric synth, generate and eval);
//  - a file that is not JSONL at all (a JSON array, pretty-printed JSON, Markdown) stops the
//    command with one line saying what format is expected, instead of one error per line.
import { z } from 'zod';
import { RubricaError } from '../core/errors.ts';
import type { ReadLinesOptions } from './jsonl-lines.ts';
import { isBadLine, type JsonlEntry, streamJsonl } from './jsonl-values.ts';

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** An input id: a string, or an integer JSON number that a double holds exactly. */
export const ExactIdSchema = z
  .union([
    z.string().min(1, 'an id must not be empty'),
    z.number().refine((n) => Number.isInteger(n) && Math.abs(n) <= MAX_ID, {
      message: `a numeric id must be an integer within ±${MAX_ID} (JSON numbers cannot hold it exactly); write it as a string`,
    }),
  ])
  .transform(String);

export interface InputError {
  line: number;
  message: string;
}

export interface InputItem<T> {
  line: number;
  item: T;
  /** The id as written when it was a JSON number (written back as a number). */
  rawId?: number;
}

/** The file is not JSON Lines at all; thrown before any item is processed. */
export class JsonlFormatError extends RubricaError<'bad_format'> {
  constructor(message: string) {
    super('bad_format', message);
  }
}

export interface ReadInputsOptions extends ReadLinesOptions {
  /** One example line, shown when the file is not JSONL. */
  example?: string;
  /** Bad lines before the first good one that make the file "not JSONL". Default 3. */
  formatProbeLines?: number;
  /** 'report' (default): a repeated id is an error line. 'pass': yielded; the caller decides. */
  duplicates?: 'report' | 'pass';
}

function formatHint(first: string): string {
  const t = first.trimStart();
  if (t.startsWith('[')) return 'it looks like a JSON array';
  if (t.startsWith('{')) return 'it looks like pretty-printed JSON spread over several lines';
  if (/^(#|```|\||- |\* )/.test(t)) return 'it looks like Markdown';
  return 'its first lines are not JSON objects';
}

function notJsonl(path: string, first: string, bad: number[], example?: string): JsonlFormatError {
  const array = first.trimStart().startsWith('[');
  return new JsonlFormatError(
    `${path} is not JSON Lines: ${formatHint(first)} (line${bad.length > 1 ? 's' : ''} ${bad.join(', ')}). ` +
      `Expected one JSON object per line${example ? `, like ${example}` : ''}` +
      (array ? `; convert an array with: jq -c '.[]' ${path}` : ''),
  );
}

/**
 * Yields the valid items of a JSONL file in order, and bad lines as errors. Duplicate ids
 * are errors too (the first line wins). Throws {@link JsonlFormatError} when the file is
 * clearly not JSONL.
 */
export async function* readJsonlItems<T extends { id: string }>(
  path: string,
  schema: z.ZodType<T>,
  opts: ReadInputsOptions = {},
): AsyncGenerator<InputItem<T> | { line: number; error: string }> {
  const probe = opts.formatProbeLines ?? 3;
  const firstLine = new Map<string, number>();
  let sawGood = false;
  let firstText: string | null = null;
  const early: { line: number; error: string }[] = [];
  // Lines become JSON values by the one reader's rules (src/store/jsonl-values.ts: BOM, CRLF,
  // blank lines); what an input item must be is checked here.
  for await (const raw of streamJsonl(path, { ...opts, badLines: 'collect' })) {
    if (firstText === null) {
      firstText = raw.text ?? '';
      // A line that opens an array can never be a record: say so at once.
      if (firstText.trimStart().startsWith('['))
        throw notJsonl(path, firstText, [raw.line], opts.example);
    }
    const r = parseLine(raw, schema);
    if ('error' in r) {
      const e = { line: raw.line, error: r.error };
      if (sawGood) {
        yield e;
        continue;
      }
      early.push(e);
      if (early.length >= probe && early.every((x) => x.error.startsWith('not ')))
        throw notJsonl(
          path,
          firstText,
          early.map((x) => x.line),
          opts.example,
        );
      continue;
    }
    if (!sawGood) {
      sawGood = true;
      yield* early.splice(0);
    }
    const seen = firstLine.get(r.item.id);
    if (seen !== undefined && opts.duplicates !== 'pass') {
      yield {
        line: raw.line,
        error: `duplicate id ${JSON.stringify(r.rawId ?? r.item.id)} (first on line ${seen}); this line is skipped`,
      };
      continue;
    }
    if (seen === undefined) firstLine.set(r.item.id, raw.line);
    yield { line: raw.line, ...r };
  }
  yield* early;
}

function parseLine<T>(
  entry: JsonlEntry,
  schema: z.ZodType<T>,
): { item: T; rawId?: number } | { error: string } {
  if (isBadLine(entry)) return { error: entry.reason };
  const json = entry.value;
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return { error: 'not a JSON object' };
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return { error: `${where}${issue?.message ?? 'invalid line'}` };
  }
  const id = (json as { id?: unknown }).id;
  return typeof id === 'number' ? { item: r.data, rawId: id } : { item: r.data };
}

/** Reads a whole input file into memory (streamed, so any size reads): items and errors. */
export async function readJsonlFile<T extends { id: string }>(
  path: string,
  schema: z.ZodType<T>,
  opts: ReadInputsOptions = {},
): Promise<{ items: InputItem<T>[]; errors: InputError[] }> {
  const items: InputItem<T>[] = [];
  const errors: InputError[] = [];
  for await (const x of readJsonlItems(path, schema, opts)) {
    if ('error' in x) errors.push({ line: x.line, message: x.error });
    else items.push(x);
  }
  return { items, errors };
}
