// Finds <svg>…</svg> elements in one segment of a completion. Opening and closing tags are
// paired with a stack, so an <svg> nested inside another is part of the outer one, and a
// stray "<svg>" mentioned in prose cannot swallow the real drawing that follows it. The
// scan is linear: each search starts where the previous one ended, and a start tag's end
// is found with a quote-aware walk that never revisits a character.
import type { Span } from './regions.ts';

export interface SvgScan {
  /** Outermost complete elements, in document order. */
  complete: Span[];
  /** Start of the first <svg> that never closed (the model ran out of tokens), or -1. */
  unclosedAt: number;
}

/** Whitespace, '>' or '/': what may follow the name in "<svg". */
function isTagNameEnd(code: number): boolean {
  return isSpace(code) || code === 62 || code === 47;
}

/** Index just after the '>' ending the start tag that begins at `from`, or -1. */
function startTagEnd(lower: string, from: number, end: number): number {
  let quote = 0;
  for (let i = from; i < end; i++) {
    const c = lower.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      quote = c;
    } else if (c === 62) {
      return i + 1;
    }
  }
  return -1;
}

/** Next "<svg" that is really a tag name (not "<svgfoo") at or after `pos`, or -1. */
function nextOpen(lower: string, pos: number, end: number): number {
  let i = lower.indexOf('<svg', pos);
  while (i !== -1 && i < end) {
    if (i + 4 >= end || isTagNameEnd(lower.charCodeAt(i + 4))) return i;
    i = lower.indexOf('<svg', i + 4);
  }
  return -1;
}

/** Next "</svg>" (whitespace allowed before '>') at or after `pos`: [start, end] or null. */
function nextClose(lower: string, pos: number, end: number): [number, number] | null {
  let i = lower.indexOf('</svg', pos);
  while (i !== -1 && i < end) {
    let j = i + 5;
    while (j < end && isSpace(lower.charCodeAt(j))) j++;
    if (j < end && lower.charCodeAt(j) === 62) return [i, j + 1];
    i = lower.indexOf('</svg', i + 5);
  }
  return null;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12;
}

/** Scans one whole segment (lowercased); positions are relative to it. */
export function scanSvgs(lower: string): SvgScan {
  const seg = { start: 0, end: lower.length };
  const matched: Span[] = [];
  const stack: number[] = [];
  // Start of the first unclosed <svg> whose content is markup: everything after it is
  // inside that element (found at the end, once we know which starts never closed).
  const contentStart = new Map<number, number>();
  let pos = seg.start;
  let open = nextOpen(lower, pos, seg.end);
  let close = nextClose(lower, pos, seg.end);
  let comment = lower.indexOf('<!--', pos);
  while (open !== -1 || close !== null) {
    const event = Math.min(open === -1 ? seg.end : open, close === null ? seg.end : close[0]);
    if (comment !== -1 && comment < event) {
      // Tags inside <!-- … --> are commented-out code, not elements.
      const end = lower.indexOf('-->', comment + 4);
      if (end === -1) break; // the rest is one unclosed comment
      pos = end + 3;
      if (open !== -1 && open < pos) open = nextOpen(lower, pos, seg.end);
      if (close !== null && close[0] < pos) close = nextClose(lower, pos, seg.end);
      comment = lower.indexOf('<!--', pos);
      continue;
    }
    if (open !== -1 && (close === null || open < close[0])) {
      const tagEnd = startTagEnd(lower, open + 4, seg.end);
      if (tagEnd === -1) {
        // The start tag itself never ends: everything after it is inside the tag.
        stack.push(open);
        break;
      }
      if (lower.charCodeAt(tagEnd - 2) === 47) {
        matched.push({ start: open, end: tagEnd }); // <svg … /> is complete on its own
      } else {
        stack.push(open);
        contentStart.set(open, tagEnd);
      }
      pos = tagEnd;
      open = nextOpen(lower, pos, seg.end);
      if (close !== null && close[0] < pos) close = nextClose(lower, pos, seg.end);
      if (comment !== -1 && comment < pos) comment = lower.indexOf('<!--', pos);
    } else if (close !== null) {
      const start = stack.pop();
      if (start !== undefined) matched.push({ start, end: close[1] });
      pos = close[1];
      close = nextClose(lower, pos, seg.end);
      if (comment !== -1 && comment < pos) comment = lower.indexOf('<!--', pos);
    }
  }
  // An element inside an <svg> that never closed is part of that unfinished drawing (a
  // pattern tile in its <defs>), not an answer: only what starts before it counts.
  const cut = stack.find((start) => opensMarkup(lower, contentStart.get(start)));
  const complete = cut === undefined ? matched : matched.filter((m) => m.start < cut);
  return { complete: outermost(complete), unclosedAt: stack.length > 0 ? stack[0]! : -1 };
}

/**
 * True when an unclosed <svg>'s content begins with markup other than another <svg>: a
 * real drawing cut short. A "<svg>" named in prose is followed by words (or a backtick),
 * and one followed straight by the real <svg> is a mention of it, so neither swallows
 * the complete drawing after it.
 */
function opensMarkup(lower: string, from: number | undefined): boolean {
  if (from === undefined) return true; // the start tag itself never ended
  let i = from;
  while (i < lower.length && isSpace(lower.charCodeAt(i))) i++;
  return lower.charCodeAt(i) === 60 && nextOpen(lower, i, i + 5) !== i;
}

/** Drops elements contained in another (pairs from a stack nest or are disjoint). */
function outermost(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  let maxEnd = -1;
  for (const s of spans) {
    if (s.start >= maxEnd) out.push(s);
    maxEnd = Math.max(maxEnd, s.end);
  }
  return out;
}

/**
 * Start of an XML prolog that belongs to the SVG at `svgStart`: an `<?xml …?>` declaration
 * and/or a `<!DOCTYPE …>` (internal subset included), with only whitespace and comments
 * between them and the <svg>. Returns `svgStart` when there is none.
 */
export function prologStart(lower: string, seg: Span, svgStart: number): number {
  for (const marker of ['<?xml', '<!doctype']) {
    const at = lower.lastIndexOf(marker, svgStart);
    if (at >= seg.start && skipProlog(lower, at, svgStart) === svgStart) return at;
  }
  return svgStart;
}

/** Walks over prolog items from `pos`; returns where the walk stopped. */
function skipProlog(lower: string, pos: number, limit: number): number {
  let i = pos;
  while (i < limit) {
    const c = lower.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
    } else if (lower.startsWith('<?', i)) {
      const e = lower.indexOf('?>', i + 2);
      if (e === -1 || e >= limit) return i;
      i = e + 2;
    } else if (lower.startsWith('<!--', i)) {
      const e = lower.indexOf('-->', i + 4);
      if (e === -1 || e >= limit) return i;
      i = e + 3;
    } else if (lower.startsWith('<!doctype', i)) {
      const e = doctypeEnd(lower, i + 9, limit);
      if (e === -1) return i;
      i = e;
    } else {
      return i;
    }
  }
  return i;
}

/** Index after the '>' closing a DOCTYPE, skipping a [ … ] internal subset. */
function doctypeEnd(lower: string, from: number, limit: number): number {
  let inSubset = false;
  for (let i = from; i < limit; i++) {
    const c = lower.charCodeAt(i);
    if (c === 91) inSubset = true;
    else if (c === 93) inSubset = false;
    else if (c === 62 && !inSubset) return i + 1;
  }
  return -1;
}
