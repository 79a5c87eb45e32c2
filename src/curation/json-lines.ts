// Streams a JSONL file as parsed values with their line numbers, for the PrismaForge commands
// that read files other tools wrote (scores, decisions, training and test sets) and must
// tolerate a bad line rather than stop: an unparseable line comes back with `value`
// undefined, and the caller decides (skip it, count it, keep it verbatim). Built on the
// store's byte-safe line reader, so a file of any size streams.
import { readLines } from '../store/jsonl-lines.ts';

export interface JsonLineValue {
  line: number;
  /** The line as read (kept verbatim by decontaminate). */
  text: string;
  /** undefined when the line is not JSON. */
  value: unknown;
}

export async function* jsonLines(file: string): AsyncGenerator<JsonLineValue> {
  for await (const raw of readLines(file)) {
    if (raw.text === undefined || !raw.text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw.text);
    } catch {
      value = undefined;
    }
    yield { line: raw.line, text: raw.text, value };
  }
}
