// XML comments and CDATA sections inside an <svg> element are the drawing's content, not the
// completion's structure: a `<think>`, `</think>`, `<answer>` or a line of backticks written
// in them must not open reasoning, end a fence or cut the SVG (issue 41: a complete drawing
// was zeroed as `truncated`). This blanks their insides in the lowercased search copy (same
// length, so every index still points into the original text, from which the answer is
// sliced unchanged). Only a section that closes, after an `<svg` opened and before a
// `</svg>` follows, is blanked: a truly cut answer still has no `</svg>` and stays
// truncated. Linear: every search moves forward.

import { allIndexes } from './regions.ts';

const SECTIONS: [string, string][] = [
  ['<!--', '-->'],
  ['<![cdata[', ']]>'],
];

function isTagNameEnd(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 12 ||
    code === 62 ||
    code === 47
  );
}

/** Every "<svg" that is a tag name (not "<svgfoo"), in order. */
function svgOpens(lower: string): number[] {
  return allIndexes(lower, '<svg').filter((i) => isTagNameEnd(lower.charCodeAt(i + 4)));
}

/** `lower` with comment and CDATA interiors inside <svg>…</svg> replaced by spaces. */
export function maskSvgComments(lower: string): string {
  if (!lower.includes('<!--') && !lower.includes('<![cdata[')) return lower;
  const opens = svgOpens(lower);
  const closes = allIndexes(lower, '</svg');
  const lastClose = closes.at(-1) ?? -1;
  let oi = 0; // opens[oi - 1] is the last <svg before the current section
  let ci = 0;
  const parts: string[] = [];
  const next = SECTIONS.map(([o]) => lower.indexOf(o));
  let copied = 0;
  let pos = 0;
  while (pos < lower.length) {
    // Each pattern's next position is searched again only once passed: linear overall.
    for (const [k, p] of SECTIONS.entries()) {
      if (next[k]! !== -1 && next[k]! < pos) next[k] = lower.indexOf(p[0], pos);
    }
    let open = -1;
    let pair: [string, string] | undefined;
    for (const [k, p] of SECTIONS.entries()) {
      const i = next[k]!;
      if (i !== -1 && (open === -1 || i < open)) {
        open = i;
        pair = p;
      }
    }
    if (open === -1 || !pair) break;
    const inner = open + pair[0].length;
    const close = lower.indexOf(pair[1], inner);
    if (close === -1) break;
    while (oi < opens.length && opens[oi]! < open) oi++;
    while (ci < closes.length && closes[ci]! < open) ci++;
    const svgOpen = oi > 0 ? opens[oi - 1]! : -1;
    const svgClosed = ci > 0 ? closes[ci - 1]! : -1;
    const inside = svgOpen !== -1 && svgOpen > svgClosed && lastClose > close;
    if (inside && close > inner) {
      parts.push(lower.slice(copied, inner), ' '.repeat(close - inner));
      copied = close;
    }
    pos = close + pair[1].length;
  }
  if (copied === 0) return lower;
  parts.push(lower.slice(copied));
  return parts.join('');
}
