// Markdown code fences inside an answer span. Models are sloppy with them, so this is more
// tolerant than CommonMark: an opener may follow text on its line ("Here: ```svg"), a closer
// may follow code on its line ("</svg>```"), and a fence left open at the end of the
// completion (the model ran out of tokens) runs to the end. Linear time: every search
// moves forward.
import type { Span } from './regions.ts';

export interface Segment extends Span {
  kind: 'prose' | 'fence';
  /** The fence's info word, lowercased ('' for a bare fence). */
  lang?: string;
}

// A single word: 'svg', 'xml', 'html', 'image/svg+xml', 'c#', 'objective-c'.
const INFO_WORD = /^[a-z0-9_+#./-]*$/;

// Info words and closer tails are short; a longer rest of line is neither, and capping it
// keeps a hostile line full of backtick runs from costing quadratic time.
const MAX_TAIL = 64;

/** End of the line containing `pos`; remembers the last newline found (positions only grow). */
function lineEnds(text: string, end: number): (pos: number) => number {
  let nl = -1;
  return (pos) => {
    if (nl < pos && nl !== end) {
      const i = text.indexOf('\n', pos);
      nl = i === -1 || i > end ? end : i;
    }
    return nl;
  };
}

function backtickRun(text: string, pos: number, end: number): number {
  let i = pos;
  while (i < end && text.charCodeAt(i) === 96) i++;
  return i - pos;
}

export function splitFences(lower: string, span: Span): Segment[] {
  const out: Segment[] = [];
  let prose = span.start;
  let pos = span.start;
  const lineEnd = lineEnds(lower, span.end);
  while (pos < span.end) {
    const tick = lower.indexOf('```', pos);
    if (tick === -1 || tick >= span.end) break;
    const run = backtickRun(lower, tick, span.end);
    const eol = lineEnd(tick + run);
    const info = eol - (tick + run) > MAX_TAIL ? '?' : lower.slice(tick + run, eol).trim();
    if (!INFO_WORD.test(info)) {
      pos = tick + run;
      continue;
    }
    if (tick > prose) out.push({ kind: 'prose', start: prose, end: tick });
    const contentStart = Math.min(eol + 1, span.end);
    const close = findCloser(lower, contentStart, span.end, run, lineEnd);
    out.push({ kind: 'fence', lang: info, start: contentStart, end: close.contentEnd });
    pos = close.next;
    prose = pos;
  }
  if (prose < span.end) out.push({ kind: 'prose', start: prose, end: span.end });
  return out;
}

/** A run of at least `run` backticks with only whitespace after it on its line. */
function findCloser(
  lower: string,
  from: number,
  end: number,
  run: number,
  lineEnd: (pos: number) => number,
): { contentEnd: number; next: number } {
  let pos = from;
  while (pos < end) {
    const tick = lower.indexOf('```', pos);
    if (tick === -1 || tick >= end) break;
    const len = backtickRun(lower, tick, end);
    const eol = lineEnd(tick + len);
    if (
      len >= run &&
      eol - (tick + len) <= MAX_TAIL &&
      lower.slice(tick + len, eol).trim() === ''
    ) {
      return { contentEnd: tick, next: eol };
    }
    pos = tick + len;
  }
  return { contentEnd: end, next: end };
}
