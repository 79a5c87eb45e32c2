// Streams a JSONL file as parsed values with their line numbers, for the PrismaForge commands
// that read files other tools wrote (scores, decisions, training and test sets) and must
// tolerate a bad line rather than stop: an unparseable line comes back with `value`
// undefined, and the caller decides (skip it, count it, keep it verbatim). Built on the one
// JSONL reader (src/store/jsonl-values.ts: BOM, CRLF, blank lines) in its tolerant mode, so
// a file of any size streams. A line whose bytes are not UTF-8 has no text to keep and is
// passed over, as before.
import { isBadLine, streamJsonl } from '../store/jsonl-values.ts';

export interface JsonLineValue {
  line: number;
  /** The line as read (kept verbatim by decontaminate). */
  text: string;
  /** undefined when the line is not JSON. */
  value: unknown;
}

export async function* jsonLines(file: string): AsyncGenerator<JsonLineValue> {
  for await (const e of streamJsonl(file, { badLines: 'collect' })) {
    if (e.text === null) continue;
    yield { line: e.line, text: e.text, value: isBadLine(e) ? undefined : e.value };
  }
}
