// Server-sent events as the ORS clients read them (openreward 0.1.112 and the reference SDK
// `ors.client._http._parse_sse_events`, read at openrewardstandard/python-sdk@a399408):
//  - an event without an `event:` line is dropped, so every event names itself;
//  - every data line loses ALL its leading whitespace (`value.lstrip()`), so no chunk may
//    begin with whitespace or the reassembled JSON changes;
//  - a line over 128 KiB raises in the reader, so a large result (a picture) is sent as
//    `chunk` events of at most CHUNK_CHARS and the last piece in `end`;
//  - lines are decoded one by one, so a chunk must never split a character: the JSON is made
//    ASCII-only (\uXXXX escapes) before it is cut.
// A comment line (`: ping`) keeps the stream from falling silent: the clients re-POST a call
// after 30 s without a byte.

/** Largest data line a result is cut into (the reference server's chunk size). */
export const CHUNK_CHARS = 4096;

/** One SSE event; `data` must hold no line break (compact JSON never does). */
export function sseEvent(event: string, data: string): string {
  if (/[\r\n]/.test(data)) throw new Error('SSE data must be a single line');
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** The keep-alive comment the clients skip. */
export const SSE_PING = ': ping\n\n';

/** JSON with every non-ASCII character escaped, so any cut falls between whole characters. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * Cuts `text` into pieces of at most `size` characters such that no piece after the first
 * begins with whitespace (the clients strip it): a cut that would land on whitespace moves
 * back to the non-space character before the run. Only a whitespace run as long as a piece
 * (never in compact JSON) makes a piece longer, by moving the cut past the run.
 */
export function cutForReader(text: string, size = CHUNK_CHARS): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    const limit = Math.min(start + size, text.length);
    let end = limit;
    while (end > start + 1 && end < text.length && isSpace(text[end])) end--;
    if (end < text.length && isSpace(text[end])) {
      end = limit;
      while (end < text.length && isSpace(text[end])) end++;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** A result as the clients reassemble it: `chunk` events, the last piece in `end`. */
export function resultEvents(json: string): string {
  const pieces = cutForReader(json);
  if (pieces.length === 0) return sseEvent('end', '');
  return pieces.map((p, i) => sseEvent(i === pieces.length - 1 ? 'end' : 'chunk', p)).join('');
}
