// Spans of an SVG answer's source between an opener and its closer, found in one pass. The
// lazy regexes these replace (/<!\[CDATA\[([\s\S]*?)\]\]>/g, /<text\b[^>]*>([\s\S]*?)<\/text\s*>/gi)
// scanned to the end of the text again from every opener that had no closer, so an answer
// repeating "<![CDATA[" or "<text>" tens of thousands of times without closing them held the
// parent's event loop for seconds to minutes (this runs in the checks, on the policy's text).
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

/**
 * Each element named in `names` (case-insensitive, with attributes) and the raw text it holds,
 * up to its first matching end tag, in document order; a self-closing or unclosed element holds
 * nothing. An opener's attributes end at the first `>` (never at a `<`: not in a well-formed
 * tag), so no opener scans past the next tag.
 */
export function* elementSpans(
  text: string,
  names: readonly string[],
): Generator<{ name: string; inner: string }> {
  const opener = new RegExp(`<(${names.join('|')})\\b[^<>]*>`, 'gi');
  const closers = new Map<string, RegExp>();
  const missing = new Set<string>();
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const name = m[1]!.toLowerCase();
    if (m[0].endsWith('/>') || missing.has(name)) continue;
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
    yield { name, inner: text.slice(opener.lastIndex, c.index) };
    opener.lastIndex = c.index + c[0].length;
  }
}
