// Spans of an SVG answer's source between an opener and its closer, found in one pass. The
// lazy regexes these replace (/<!\[CDATA\[([\s\S]*?)\]\]>/g, /<text\b[^>]*>([\s\S]*?)<\/text\s*>/gi,
// /<metadata\b[\s\S]*?<\/metadata\s*>/gi) scanned to the end of the text again from every
// opener that had no closer, so an answer repeating "<![CDATA[" or "<text>" tens of thousands of
// times without closing them held the parent's event loop for seconds to minutes (the
// extraction and the checks run there, on the policy's text).
// Here a closer missing after one opener is missing after every later one, and the scan stops.

/** Each `open … close` span (literal markers, case-sensitive): where it starts and what it holds. */
export function* markerSpans(
  text: string,
  open: string,
  close: string,
): Generator<{ start: number; end: number; inner: string }> {
  let at = 0;
  for (;;) {
    const start = text.indexOf(open, at);
    if (start < 0) return;
    const close0 = text.indexOf(close, start + open.length);
    if (close0 < 0) return;
    const end = close0 + close.length;
    yield { start, end, inner: text.slice(start + open.length, close0) };
    at = end;
  }
}

/** One element found by `elementSpans`: its name (lower case), where it starts and ends in
 * the text (the end past its end tag), and the raw text it holds ('' when self-closing). */
export interface ElementSpan {
  name: string;
  start: number;
  end: number;
  inner: string;
  selfClosing: boolean;
}

/**
 * Each element named in `names` (case-insensitive, with attributes) and the raw text it holds,
 * up to its first matching end tag, in document order; an unclosed element is not one. An
 * opener's attributes end at the first `>` (never at a `<`: not in a well-formed tag), so no
 * opener scans past the next tag.
 */
export function* elementSpans(text: string, names: readonly string[]): Generator<ElementSpan> {
  const opener = new RegExp(`<(${names.join('|')})\\b[^<>]*>`, 'gi');
  const closers = new Map<string, RegExp>();
  const missing = new Set<string>();
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const name = m[1]!.toLowerCase();
    if (m[0].endsWith('/>')) {
      yield { name, start: m.index, end: opener.lastIndex, inner: '', selfClosing: true };
      continue;
    }
    if (missing.has(name)) continue;
    let closer = closers.get(name);
    if (!closer) {
      closer = new RegExp(`</${name}\\s*>`, 'gi');
      closers.set(name, closer);
    }
    closer.lastIndex = opener.lastIndex;
    const c = closer.exec(text);
    if (!c) {
      // No end tag after this opener: none after any later one either.
      missing.add(name);
      continue;
    }
    const end = c.index + c[0].length;
    yield {
      name,
      start: m.index,
      end,
      inner: text.slice(opener.lastIndex, c.index),
      selfClosing: false,
    };
    opener.lastIndex = end;
  }
}
