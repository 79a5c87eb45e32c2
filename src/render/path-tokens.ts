// Path data split into commands and numbers for geometry.ts `pathPolygons`, by a scanner
// instead of a regular expression and a Number() per token: sampling paths is most of the
// frame reading's CPU on a small drawing (frame-shapes.ts; the overdraw walk shares the
// result). It finds exactly the tokens of
//   /[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g
// (anything else is skipped one code unit at a time, as that match skips it) and gives each
// number the double Number() gives it: a plain decimal of at most 15 significant digits is
// an exact integer divided by an exact power of ten, and IEEE division rounds that quotient
// correctly, as Number() rounds the decimal (the fast path of Clinger's algorithm); anything
// else (an exponent, more digits) goes through Number() itself.

/** Tokens in order: `cmds[i]` is a command's char code, or 0 for a number `vals[i]`. */
export interface PathTokens {
  cmds: number[];
  /** The number, or NaN for a command (what Number() makes of a letter). */
  vals: number[];
}

const POW10: number[] = [];
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POW10.push(p);
/** Below this an integer is exact, and so is ten times it plus a digit when also below. */
const EXACT = 2 ** 53;

/** Char codes of the path commands (both cases). */
const COMMAND = new Uint8Array(128);
for (const c of 'MmLlHhVvCcSsQqTtAaZz') COMMAND[c.charCodeAt(0)] = 1;

const isDigit = (c: number) => c >= 48 && c <= 57;

export function tokenizePath(d: string): PathTokens {
  const cmds: number[] = [];
  const vals: number[] = [];
  const len = d.length;
  let pos = 0;
  while (pos < len) {
    const c = d.charCodeAt(pos);
    if (c < 128 && COMMAND[c] === 1) {
      cmds.push(c);
      vals.push(Number.NaN);
      pos++;
      continue;
    }
    // [-+]? then \d+\.?\d* or \.\d+
    let j = pos;
    const negative = c === 45;
    if (c === 43 || c === 45) j++;
    let m = 0;
    let k = 0;
    let exact = true;
    let digits = 0;
    while (j < len && isDigit(d.charCodeAt(j))) {
      m = m * 10 + (d.charCodeAt(j) - 48);
      j++;
      digits++;
    }
    if (digits > 0 && j < len && d.charCodeAt(j) === 46) {
      j++;
      while (j < len && isDigit(d.charCodeAt(j))) {
        m = m * 10 + (d.charCodeAt(j) - 48);
        j++;
        k++;
      }
    } else if (digits === 0) {
      if (j + 1 < len && d.charCodeAt(j) === 46 && isDigit(d.charCodeAt(j + 1))) {
        j++;
        while (j < len && isDigit(d.charCodeAt(j))) {
          m = m * 10 + (d.charCodeAt(j) - 48);
          j++;
          k++;
        }
      } else {
        pos++; // no number starts here: skipped, as the regular expression skips it
        continue;
      }
    }
    // (?:[eE][-+]?\d+)? — taken only when digits follow.
    if (j < len && (d.charCodeAt(j) | 32) === 101) {
      let e = j + 1;
      if (e < len && (d.charCodeAt(e) === 43 || d.charCodeAt(e) === 45)) e++;
      if (e < len && isDigit(d.charCodeAt(e))) {
        while (e < len && isDigit(d.charCodeAt(e))) e++;
        j = e;
        exact = false;
      }
    }
    if (m >= EXACT || k > 22) exact = false;
    let v: number;
    if (exact) {
      v = k === 0 ? m : m / POW10[k]!;
      if (negative) v = -v;
    } else v = Number(d.slice(pos, j));
    cmds.push(0);
    vals.push(v);
    pos = j;
  }
  return { cmds, vals };
}
