// Reads a JSON Lines file as bytes, one line at a time, so a file of any size can be read
// (a 600 MB file read as one string fails with ERR_STRING_TOO_LONG), and each line is
// checked to be valid UTF-8 on its own: a bad byte is reported with its line number instead
// of being silently replaced with U+FFFD (which could merge two different ids).
import { createReadStream } from 'node:fs';

/** One line of a file: its text, or why it could not be decoded. */
export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Bytes of the line, without its newline. */
  bytes: number;
  /** False for a last line with no newline after it. */
  terminated: boolean;
  text?: string;
  error?: string;
}

export interface ReadLinesOptions {
  /** Longer lines are reported as errors (their bytes are not kept). Default 256 MiB. */
  maxLineBytes?: number;
  /** Read chunk size (tests use small ones to cut lines across chunks). */
  chunkBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

function decodeLine(buf: Buffer, line: number): { text?: string; error?: string } {
  let end = buf.length;
  if (end > 0 && buf[end - 1] === 0x0d) end--; // CRLF files
  let begin = 0;
  // A byte-order mark at the start of the file is an editor's, not part of the JSON.
  if (line === 1 && end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) begin = 3;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(begin, end)) };
  } catch {
    return { error: 'not valid UTF-8 (re-encode the file as UTF-8)' };
  }
}

/** Yields every line of `path` (blank ones too, so callers can count lines). */
export async function* readLines(
  path: string,
  opts: ReadLinesOptions = {},
): AsyncGenerator<RawLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const stream = createReadStream(path, { highWaterMark: opts.chunkBytes ?? 1 << 20 });
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let lineNo = 0;
  let offset = 0; // bytes consumed before the current line
  const finish = (terminated: boolean): RawLine => {
    lineNo++;
    const bytes = partBytes;
    const base = { line: lineNo, start: offset, bytes, terminated };
    offset += bytes + (terminated ? 1 : 0);
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes);
    parts = [];
    partBytes = 0;
    if (tooLong) {
      tooLong = false;
      return { ...base, error: `line longer than ${max} bytes` };
    }
    return { ...base, ...decodeLine(buf, lineNo) };
  };
  const add = (piece: Buffer) => {
    partBytes += piece.length;
    if (partBytes > max) tooLong = true;
    // An over-long line is only measured: its bytes are dropped to bound memory.
    if (!tooLong && piece.length) parts.push(piece);
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl < 0) break;
      add(chunk.subarray(from, nl));
      yield finish(true);
      from = nl + 1;
    }
    if (from < chunk.length) add(Buffer.from(chunk.subarray(from)));
  }
  if (partBytes > 0) yield finish(false);
}

/** Counts lines that hold something other than whitespace, reading bytes only (fast). */
export async function countNonBlankLines(path: string): Promise<number> {
  let n = 0;
  let blank = true;
  for await (const chunk of createReadStream(path, {
    highWaterMark: 1 << 20,
  }) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x0a) {
        if (!blank) n++;
        blank = true;
      } else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) blank = false;
    }
  }
  return blank ? n : n + 1;
}
