// Counts drawing segments in path data and point lists without building geometry: a
// cheap, exact-enough measure for the segment limit and the clutter check.

const PARAMS: Record<string, number> = { m: 2, l: 2, t: 2, h: 1, v: 1, c: 6, s: 4, q: 4, a: 7 };
const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;

/**
 * Drawn segments in an SVG path `d`: one per complete parameter group (the pen-moving
 * first pair of a moveto excluded), one per closepath.
 */
export function countPathSegments(d: string): number {
  let segments = 0;
  let per = 0;
  let have = 0;
  let moving = false; // the first pair after M/m moves the pen and draws nothing
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(d); m !== null; m = TOKEN.exec(d)) {
    const cmd = m[1];
    if (cmd !== undefined) {
      const lower = cmd.toLowerCase();
      if (lower === 'z') {
        segments++;
        per = 0;
      } else {
        per = PARAMS[lower] ?? 0;
        moving = lower === 'm';
      }
      have = 0;
      continue;
    }
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
  const nums = points.match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g)?.length ?? 0;
  const pairs = Math.floor(nums / 2);
  if (pairs < 2) return 0;
  return pairs - 1 + (closed ? 1 : 0);
}
