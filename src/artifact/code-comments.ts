// Comments out of a program, per domain, for the code judge's copy (judge/code-for-judge.ts),
// and the comments and string literals themselves for the judge_text check.
// One linear scanner that knows each language's string quotes (a `#` inside a Python string
// is not a comment), line comments and block comments. A removed line comment keeps its
// newline, a removed block keeps a space, so line numbers the judge quotes stay close.
// Domains without comments (vega-lite JSON, SMILES) come back unchanged.
import { elementSpans } from './element-spans.ts';

export interface JudgedCode {
  /** The program as the judge reads it. */
  code: string;
  /** How many comment / metadata / foreignObject spans were removed. */
  removed: number;
  /** The removed comments' text (SVG: also metadata and foreignObject), in order. */
  comments: string[];
  /** The string literals kept (code domains), in order. */
  strings: string[];
}

interface Syntax {
  line: string[];
  block: [string, string][];
  /** Quote characters; `'''`/`"""` when `triple`. */
  quotes: string[];
  triple?: boolean;
  /** A line comment starter that must be at the start of a line (DOT's `#`). */
  lineAtStart?: string[];
  /** Text right after a line-comment starter that means "not a comment" (mermaid `%%{`). */
  keepIf?: RegExp;
  /** The escape character inside strings (and before a line comment starter: `\%`). */
  escape: string;
}

const SYNTAX: Record<string, Syntax> = {
  python: { line: ['#'], block: [], quotes: ["'", '"'], triple: true, escape: '\\' },
  latex: { line: ['%'], block: [], quotes: [], escape: '\\' },
  lilypond: { line: ['%'], block: [['%{', '%}']], quotes: ['"'], escape: '\\' },
  dot: {
    line: ['//'],
    lineAtStart: ['#'],
    block: [['/*', '*/']],
    quotes: ['"'],
    escape: '\\',
  },
  mermaid: { line: [], lineAtStart: ['%%'], block: [], quotes: [], keepIf: /^\{/, escape: '' },
  html: { line: [], block: [['<!--', '-->']], quotes: [], escape: '' },
};

// SVG: comments (an unclosed one runs to the end), then the two elements rubrica's sanitiser
// drops (they never reach the picture), found in one pass each (element-spans.ts).
const SVG_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

function stripSvg(code: string): JudgedCode {
  const comments: string[] = [];
  let out = code.replace(SVG_COMMENT, (m) => {
    comments.push(m);
    return '';
  });
  for (const name of ['metadata', 'foreignObject']) {
    let kept = '';
    let at = 0;
    for (const span of elementSpans(out, [name])) {
      comments.push(out.slice(span.start, span.end));
      kept += out.slice(at, span.start);
      at = span.end;
    }
    out = kept + out.slice(at);
  }
  return { code: out, removed: comments.length, comments, strings: [] };
}

export function stripCodeComments(code: string, domain: string): JudgedCode {
  if (domain === 'svg') return stripSvg(code);
  const syn = SYNTAX[domain];
  if (!syn) return { code, removed: 0, comments: [], strings: [] };
  let out = '';
  const comments: string[] = [];
  const strings: string[] = [];
  let i = 0;
  const n = code.length;
  const at = (s: string) => code.startsWith(s, i);
  const lineStart = () => i === 0 || code[i - 1] === '\n';
  while (i < n) {
    const c = code[i]!;
    if (syn.escape && c === syn.escape && i + 1 < n) {
      out += code.slice(i, i + 2);
      i += 2;
      continue;
    }
    const block = syn.block.find(([open]) => at(open));
    if (block) {
      const end = code.indexOf(block[1], i + block[0].length);
      const to = end === -1 ? n : end + block[1].length;
      comments.push(code.slice(i, to));
      i = to;
      out += ' ';
      continue;
    }
    const line =
      syn.line.find((s) => at(s)) ??
      (lineStart() ? syn.lineAtStart?.find((s) => at(s)) : undefined);
    if (line && !syn.keepIf?.test(code.slice(i + line.length, i + line.length + 2))) {
      const nl = code.indexOf('\n', i);
      const to = nl === -1 ? n : nl;
      comments.push(code.slice(i, to));
      i = to;
      continue;
    }
    if (syn.quotes.includes(c)) {
      const q = syn.triple && at(c.repeat(3)) ? c.repeat(3) : c;
      let j = i + q.length;
      while (j < n && !code.startsWith(q, j)) {
        if (code[j] === syn.escape) j++;
        else if (q.length === 1 && code[j] === '\n') break; // an unclosed one-line string
        j++;
      }
      j = Math.min(n, code.startsWith(q, j) ? j + q.length : j);
      out += code.slice(i, j);
      strings.push(code.slice(i, j));
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return { code: out, removed: comments.length, comments, strings };
}
