// Where each number of a JSON answer sits in the answer's text: the character offsets of
// every number literal, by property path. The score token is then found by offset in the
// server's token stream (score-distribution.ts) — the answer is parsed once, by the client,
// and this scanner only measures where its numbers were written. It tolerates text around
// the object (a fence, a <think> block) by scanning from each `{` until one scans whole.

/**
 * One number literal (or, when asked for, a `true`/`false`): its path (e.g. ["shape",
 * "score"]) and [start, end) in the text.
 */
export interface NumberSpan {
  path: string[];
  start: number;
  end: number;
}

class Stop extends Error {}

function scanFrom(text: string, from: number, booleans: boolean): NumberSpan[] | null {
  let i = from;
  const out: NumberSpan[] = [];
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const str = (): string => {
    if (text[i] !== '"') throw new Stop();
    let s = '';
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        const raw = text.slice(i, text[i + 1] === 'u' ? i + 6 : i + 2);
        try {
          s += JSON.parse(`"${raw}"`) as string;
        } catch {
          throw new Stop();
        }
        i += raw.length;
      } else s += text[i++];
    }
    if (text[i] !== '"') throw new Stop();
    i++;
    return s;
  };
  const value = (path: string[]): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        const k = str();
        ws();
        if (text[i++] !== ':') throw new Stop();
        value([...path, k]);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else throw new Stop();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value([...path, String(n)]);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else throw new Stop();
      }
    }
    if (c === '"') return void str();
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m) {
      out.push({ path, start: i, end: i + m[0].length });
      i += m[0].length;
      return;
    }
    const lit = ['true', 'false', 'null'].find((l) => text.startsWith(l, i));
    if (!lit) throw new Stop();
    if (booleans && lit !== 'null') out.push({ path, start: i, end: i + lit.length });
    i += lit.length;
  };
  try {
    value([]);
    return out;
  } catch (err) {
    if (err instanceof Stop) return null;
    throw err;
  }
}

/**
 * The number spans of the first JSON object in `text` that scans whole; null if none does.
 * `booleans`: the spans of `true` and `false` too (a yes/no verdict read as a distribution).
 */
export function numberSpans(text: string, booleans = false): NumberSpan[] | null {
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    const spans = scanFrom(text, at, booleans);
    if (spans) return spans;
  }
  return null;
}

/** The span of the number at exactly this path. */
export function spanAt(spans: readonly NumberSpan[], path: readonly string[]): NumberSpan | null {
  return (
    spans.find((s) => s.path.length === path.length && s.path.every((p, k) => p === path[k])) ??
    null
  );
}
