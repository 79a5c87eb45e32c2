// Qwen's pre-tokenizer split (PRE_TOKENIZER in qwen-bpe.ts) for text that is all ASCII,
// as a scan over character codes. SVG is ASCII almost always and splits into very many
// short pieces — every digit is a piece of its own — and the regex's per-match objects cost
// more than the BPE of the pieces (measured in bench:render's parent: ~0.5 of its ~0.7 ms a
// completion). For ASCII the pattern's classes are plain: \p{L} is A–Z a–z, \p{N} is 0–9,
// and the whitespace set is \t–\r and space. ascii-pieces.test.ts checks the two splits are
// the same on fuzzed text; non-ASCII text keeps the regex.

const CR = 13;
const LF = 10;
const SPACE = 32;
const APOSTROPHE = 39;

const isLetter = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === SPACE || (c >= 9 && c <= 13);
/** Not whitespace, letter or digit: the pattern's [^\s\p{L}\p{N}] (NaN past the end: false). */
const isOther = (c: number) => !Number.isNaN(c) && !isSpace(c) && !isLetter(c) && !isDigit(c);
const lower = (c: number) => c | 32;

/** True when every character of `text` is ASCII (then asciiPieceEnd splits it). */
// No UTF-16 code unit at or above U+0080 (surrogate halves included).
export const isAscii = (text: string): boolean => !/[\u0080-\uffff]/.test(text);

/** Length of the contraction ('s 't 're 've 'm 'll 'd, any case) starting at `i`, or 0. */
function contraction(text: string, i: number): number {
  const a = lower(text.charCodeAt(i + 1));
  if (a === 115 || a === 116 || a === 109 || a === 100) return 2; // s t m d
  const b = lower(text.charCodeAt(i + 2));
  if ((a === 114 || a === 118) && b === 101) return 3; // re ve
  if (a === 108 && b === 108) return 3; // ll
  return 0;
}

function letterRunEnd(text: string, j: number): number {
  while (isLetter(text.charCodeAt(j))) j++;
  return j;
}

/**
 * Where the piece that starts at `i` ends, for ASCII `text`: the pattern's alternatives in
 * order, the first that matches at `i` wins, as a regex alternation does.
 */
export function asciiPieceEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  // 1. A contraction.
  if (c === APOSTROPHE) {
    const n = contraction(text, i);
    if (n > 0) return i + n;
  }
  // 2. An optional character that is no letter, digit or line break, then letters.
  if (isLetter(c)) return letterRunEnd(text, i + 1);
  if (c !== CR && c !== LF && !isDigit(c) && isLetter(next)) return letterRunEnd(text, i + 2);
  // 3. One digit.
  if (isDigit(c)) return i + 1;
  // 4. An optional space, a run of other characters, then line breaks.
  if (isOther(c) || (c === SPACE && isOther(next))) {
    let j = c === SPACE ? i + 1 : i;
    while (isOther(text.charCodeAt(j))) j++;
    while (text.charCodeAt(j) === CR || text.charCodeAt(j) === LF) j++;
    return j;
  }
  // What is left starts with whitespace: the run, and the last line break in it.
  let end = i;
  let lastBreak = -1;
  while (end < text.length && isSpace(text.charCodeAt(end))) {
    const d = text.charCodeAt(end);
    if (d === CR || d === LF) lastBreak = end;
    end++;
  }
  // 5. Whitespace up to and including its last line break.
  if (lastBreak >= 0) return lastBreak + 1;
  // 6. Whitespace not followed by a non-space: the run at the end of the text, else all of
  // it but its last character (which then leads the next piece).
  if (end === text.length || end - i >= 2) return end === text.length ? end : end - 1;
  // 7. One whitespace character.
  return end;
}
