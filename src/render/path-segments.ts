// Counts drawing segments in path data and point lists without building geometry: a
// cheap, exact-enough measure for the segment limit and the clutter check.

// Parameters per command, indexed by the lower-case letter's char code.
const PARAMS = new Int8Array(128).fill(-1);
for (const [c, n] of Object.entries({
  m: 2,
  l: 2,
  t: 2,
  h: 1,
  v: 1,
  c: 6,
  s: 4,
  q: 4,
  a: 7,
  z: 0,
})) {
  PARAMS[c.charCodeAt(0)] = n;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** End index of the number starting at `i`, or `i` when there is none. */
function numberEnd(d: string, i: number): number {
  const n = d.length;
  let j = i;
  const c = d.charCodeAt(j);
  if (c === 43 || c === 45) j++; // + -
  let digits = false;
  while (j < n && isDigit(d.charCodeAt(j))) {
    j++;
    digits = true;
  }
  if (j < n && d.charCodeAt(j) === 46) {
    j++;
    while (j < n && isDigit(d.charCodeAt(j))) {
      j++;
      digits = true;
    }
  }
  if (!digits) return i;
  const e = d.charCodeAt(j);
  if (e === 101 || e === 69) {
    let k = j + 1;
    const sign = d.charCodeAt(k);
    if (sign === 43 || sign === 45) k++;
    if (isDigit(d.charCodeAt(k))) {
      while (k < n && isDigit(d.charCodeAt(k))) k++;
      j = k;
    }
  }
  return j;
}

/**
 * Drawn segments in an SVG path `d`: one per complete parameter group (the pen-moving
 * first pair of a moveto excluded), one per closepath. A hand-written scanner: this runs
 * on every path of every rollout, and a regex tokenizer was a fifth of the sanitiser's time.
 */
export function countPathSegments(d: string): number {
  let segments = 0;
  let per = 0;
  let have = 0;
  let moving = false; // the first pair after M/m moves the pen and draws nothing
  const n = d.length;
  let i = 0;
  while (i < n) {
    const c = d.charCodeAt(i);
    const lower = c | 0x20;
    if (lower >= 97 && lower <= 122 && lower !== 101) {
      const params = PARAMS[lower]!;
      if (params === 0) segments++;
      per = Math.max(params, 0);
      moving = lower === 109;
      have = 0;
      i++;
      continue;
    }
    const end = numberEnd(d, i);
    if (end === i) {
      i++; // separator or junk
      continue;
    }
    i = end;
    if (per === 0) continue;
    if (++have === per) {
      if (moving) moving = false;
      else segments++;
      have = 0;
    }
  }
  return segments;
}

/** Segments of a polyline/polygon `points` list (pairs of numbers). */
export function countPointSegments(points: string, closed: boolean): number {
  const nums = points.match(/[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/g)?.length ?? 0;
  const pairs = Math.floor(nums / 2);
  if (pairs < 2) return 0;
  return pairs - 1 + (closed ? 1 : 0);
}
