// The one JSON Lines reader: every file of JSON values one per line that rubrica reads
// (inputs, rubrics, scores, results.jsonl, human ratings, PrismaForge sets) goes through here,
// so every command reads a file by the same rules:
//  - a byte-order mark at the start is dropped (an editor's, not part of the JSON);
//  - CRLF line ends are accepted; blank (whitespace-only) lines are skipped but counted, so
//    line numbers are the editor's;
//  - a line that is not JSON is one error naming the file and line, `FILE:LINE: not valid
//    JSON` — thrown by default, or, for the commands documented to tolerate bad lines
//    (`badLines: 'collect'`), handed back with the same reason for the caller to count,
//    report or keep.
// What a value must look like (an object, an id, a schema) is the caller's business: this
// file only turns lines into JSON values. Large files stream (streamJsonl); text already in
// memory, or a small file read whole, goes through parseJsonl / readJsonlSync.
import { readFileSync } from 'node:fs';
import { RubricaError } from '../core/errors.ts';
import { type ReadLinesOptions, readLines } from './jsonl-lines.ts';

/** The reason given for a line that does not parse, in every command. */
export const NOT_JSON = 'not valid JSON';

/** A line that parsed. */
export interface JsonlValue {
  /** 1-based line number. */
  line: number;
  /** The line as read (BOM and CR removed). */
  text: string;
  value: unknown;
}

/** A line that did not: not JSON, or (streamed) not decodable as UTF-8. */
export interface JsonlBadLine {
  line: number;
  /** The line as read; null when its bytes were not valid UTF-8. */
  text: string | null;
  reason: string;
}

export type JsonlEntry = JsonlValue | JsonlBadLine;

export const isBadLine = (e: JsonlEntry): e is JsonlBadLine => 'reason' in e;

/** `FILE:LINE: reason`, the one shape of a bad-line message. */
export function badLineMessage(file: string, line: number, reason: string): string {
  return `${file}:${line}: ${reason}`;
}

/** A bad line in a file read with `badLines: 'throw'` (the default). */
export class JsonlLineError extends RubricaError<'bad_jsonl_line'> {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  constructor(file: string, line: number, reason: string) {
    super('bad_jsonl_line', badLineMessage(file, line, reason));
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

export interface JsonlReadOptions {
  /**
   * 'throw' (default): the first bad line throws JsonlLineError. 'collect': bad lines come
   * back as JsonlBadLine, for commands documented to skip and count them.
   */
  badLines?: 'throw' | 'collect';
}

const BOM = '\uFEFF';

/** One line's text → its value, or the reason it is not JSON. */
export function parseJsonLine(line: number, text: string): JsonlEntry {
  try {
    return { line, text, value: JSON.parse(text) as unknown };
  } catch {
    return { line, text, reason: NOT_JSON };
  }
}

function settle(file: string, entry: JsonlEntry, opts: JsonlReadOptions): JsonlEntry {
  if (isBadLine(entry) && opts.badLines !== 'collect')
    throw new JsonlLineError(file, entry.line, entry.reason);
  return entry;
}

/** The non-blank lines of a text, numbered as an editor does (BOM and CR removed). */
export function* jsonlTextLines(text: string): Generator<{ line: number; text: string }> {
  const lines = (text.startsWith(BOM) ? text.slice(1) : text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (t.trim() !== '') yield { line: i + 1, text: t };
  }
}

/** Parses JSONL text already in memory; `file` names it in errors. */
export function parseJsonl(
  text: string,
  file: string,
  opts: JsonlReadOptions = {},
): { values: JsonlValue[]; bad: JsonlBadLine[] } {
  const values: JsonlValue[] = [];
  const bad: JsonlBadLine[] = [];
  for (const l of jsonlTextLines(text)) {
    const e = settle(file, parseJsonLine(l.line, l.text), opts);
    if (isBadLine(e)) bad.push(e);
    else values.push(e);
  }
  return { values, bad };
}

/** Reads a small JSONL file whole (synchronous callers: rubric indexes, `export sft`). */
export function readJsonlSync(
  path: string,
  opts: JsonlReadOptions = {},
): { values: JsonlValue[]; bad: JsonlBadLine[] } {
  return parseJsonl(readFileSync(path, 'utf8'), path, opts);
}

/**
 * Streams a JSONL file of any size (bytes read line by line, each checked to be UTF-8 on its
 * own: a bad byte is that line's error, never silently replaced).
 */
export async function* streamJsonl(
  path: string,
  opts: JsonlReadOptions & ReadLinesOptions = {},
): AsyncGenerator<JsonlEntry> {
  for await (const raw of readLines(path, opts)) {
    if (raw.text === undefined) {
      yield settle(
        path,
        { line: raw.line, text: null, reason: raw.error ?? 'unreadable line' },
        opts,
      );
      continue;
    }
    if (raw.text.trim() === '') continue;
    yield settle(path, parseJsonLine(raw.line, raw.text), opts);
  }
}
