// The zlib stream of a PNG's unfiltered RGB rows, written straight from the picture's colour
// runs: no row bytes are built and no byte is searched, so the cost follows the number of runs
// (~6,000 on a 512² icon), not the 786 KB of rows Node's zlib used to scan. What the runs give
// for free:
//   - a run is its first pixel as three literals, then a match at distance 3 for the rest;
//   - a run that continues the previous pixel's colour (it resumes after a stretch copied from
//     the row above, or starts a row in the colour the last row ended in) needs no literals;
//   - where a row's pixels equal the row above (found by walking both rows' runs together),
//     the stretch is one match at distance = row stride, across run and row boundaries alike;
//     only while the stride fits deflate's 32 KiB window (width ≤ 10,922).
//   - a run sequence seen before (a dot repeated along a row, a tile repeated down) is found
//     by a hash of a segment's colour and length and the next segment's colour, checked run
//     by run, and copied from wherever it is in the window.
// The Adler-32 of the rows comes from the runs too: a run's sum and weighted sum are closed
// forms in its length, so there is no per-byte loop anywhere.
import { type BitWriter, matchToken, pixelToken, writeBlock } from './deflate-block.ts';
import type { ColourRuns } from './picture-stats.ts';

const WINDOW = 32768;
const MAX_MATCH = 258;
/** Equal-to-the-row-above stretches shorter than this many pixels are coded as runs. */
const MIN_SPAN = 2;
/** Tokens per deflate block: each block gets its own Huffman codes. */
const BLOCK_TOKENS = 1 << 16;
const ADLER_MOD = 65521;
// Adler's sums are kept unreduced (a % per run was a third of the encoder's time) while every
// step stays below 2⁵³: a row segment adds at most 3n·a + 765·1.5·n(n+1) to b, which for
// n < 2¹⁶ and a < 2³² is below 2⁵¹, so both are reduced once b passes 2⁵¹. Wider pictures
// reduce after every segment.
const ADLER_A_MAX = 2 ** 32;
const ADLER_B_MAX = 2 ** 51;

// Scratch kept between pictures (one picture at a time per thread).
let tokens = new Int32Array(0);
let rowScratch = new Int32Array(0);
let history = new Int32Array(0);
let historyPos = new Float64Array(0);
const HASH_BITS = 15;
const table = new Int32Array(1 << HASH_BITS);

/** Where to look up a segment followed by another: its colour and length, the next colour. */
const hashOf = (colour: number, length: number, next: number): number =>
  (Math.imul(colour, 0x9e3779b1) ^ Math.imul(length, 0x85ebca77) ^ Math.imul(next, 0xc2b2ae3d)) >>>
  (32 - HASH_BITS);

/** Appends to `w` the zlib stream (RFC 1950) of the rows a PNG with these runs holds. */
export function deflateRuns(runs: ColourRuns, width: number, height: number, w: BitWriter): void {
  const stride = 1 + 3 * width;
  const strideOk = stride <= WINDOW;
  if (tokens.length < BLOCK_TOKENS + stride + 8) tokens = new Int32Array(BLOCK_TOKENS + stride + 8);
  if (rowScratch.length < 6 * (width + 1) + 2 * (width + 1)) {
    rowScratch = new Int32Array(8 * (width + 1));
  }
  const stretch = width + 1;
  const reduceAlways = width >= 65536;
  let curX = rowScratch.subarray(0, stretch);
  let curCol = rowScratch.subarray(stretch, 2 * stretch);
  let prevX = rowScratch.subarray(2 * stretch, 3 * stretch);
  let prevCol = rowScratch.subarray(3 * stretch, 4 * stretch);
  const spanStart = rowScratch.subarray(4 * stretch, 5 * stretch);
  const spanEnd = rowScratch.subarray(5 * stretch, 6 * stretch);
  let prevSegs = 0;
  // Every segment so far (colour, length, byte position), for
  // copies of a run sequence seen earlier at any distance in the window: a dot repeated
  // along a row, a tile repeated down the picture. `table` maps a segment, its length and
  // the next segment's colour to the last such segment.
  const room = runs.count + height + 2;
  if (history.length < 2 * room) {
    history = new Int32Array(2 * room);
    historyPos = new Float64Array(room);
  }
  const gCol = history.subarray(0, room);
  const gLen = history.subarray(room, 2 * room);
  const gPos = historyPos;
  table.fill(0);
  let base = 0; // index of the current row's first segment

  w.reserve(2);
  w.buf[w.pos++] = 0x78; // deflate, 32 KiB window
  w.buf[w.pos++] = 0x01; // no dictionary, "fastest" level; 0x7801 % 31 === 0
  let count = 0;
  let pendLen = 0; // a match not yet cut into ≤ 258-byte tokens, so neighbours can join it
  let pendDist = 0;
  const flushPending = () => {
    let left = pendLen;
    while (left > 0) {
      // Every match is ≥ 3 bytes: never leave 1 or 2 for the last piece.
      const take = left > MAX_MATCH ? (left - MAX_MATCH < 3 ? left - 3 : MAX_MATCH) : left;
      tokens[count++] = matchToken(take, pendDist);
      left -= take;
    }
    pendLen = 0;
  };
  const match = (len: number, dist: number) => {
    if (pendLen > 0 && pendDist !== dist) flushPending();
    pendDist = dist;
    pendLen += len;
    // Cut off whole tokens as it grows, keeping 3–260 bytes back so the scratch stays small.
    while (pendLen > MAX_MATCH + 2) {
      tokens[count++] = matchToken(MAX_MATCH, dist);
      pendLen -= MAX_MATCH;
    }
  };
  /** A literal byte, or a pixel's three (pixelToken). */
  const literal = (token: number) => {
    if (pendLen > 0) flushPending();
    tokens[count++] = token;
  };

  let adlerA = 1;
  let adlerB = 0;
  const { colour, length } = runs;
  let ri = -1;
  let rleft = 0;
  let lastOfPrevRow = -1;
  for (let y = 0; y < height; y++) {
    adlerB += adlerA; // the filter byte (0) adds nothing to a
    let segs = 0;
    for (let x = 0; x < width; ) {
      while (rleft === 0) {
        if (++ri >= runs.count) throw new Error(`colour runs end at row ${y}, column ${x}`);
        rleft = length[ri]!;
      }
      const n = Math.min(rleft, width - x);
      const c = colour[ri]!;
      curX[segs] = x;
      curCol[segs] = c;
      gCol[base + segs] = c;
      gLen[base + segs] = n;
      gPos[base + segs] = y * stride + 1 + 3 * x;
      segs++;
      x += n;
      rleft -= n;
      // n pixels of (r, g, b) add n(r+g+b) to a; to b they add 3n·a plus each byte times the
      // count of bytes from it to the end: Σ over the r's is 3n(n+1)/2 =: t, the g's t − n,
      // the b's t − 2n, so (r+g+b)·t − n(g+2b). Exact in doubles; reduced only when large.
      const g = (c >>> 8) & 0xff;
      const b = c & 0xff;
      const sum = (c >>> 16) + g + b;
      adlerB += 3 * n * adlerA + sum * 1.5 * n * (n + 1) - n * (g + 2 * b);
      adlerA += n * sum;
      if (reduceAlways || adlerA > ADLER_A_MAX || adlerB > ADLER_B_MAX) {
        adlerA %= ADLER_MOD;
        adlerB %= ADLER_MOD;
      }
    }
    curX[segs] = width;

    // Stretches equal to the row above: walk both rows' segments together.
    let spans = 0;
    if (y > 0 && strideOk) {
      for (let i = 0, j = 0; i < segs && j < prevSegs; ) {
        const s = Math.max(curX[i]!, prevX[j]!);
        const e = Math.min(curX[i + 1]!, prevX[j + 1]!);
        if (curCol[i] === prevCol[j]) {
          if (spans > 0 && spanEnd[spans - 1] === s) spanEnd[spans - 1] = e;
          else {
            spanStart[spans] = s;
            spanEnd[spans++] = e;
          }
        }
        if (curX[i + 1] === e) i++;
        if (prevX[j + 1] === e) j++;
      }
    }

    let si = 0;
    while (si < spans && spanEnd[si]! - spanStart[si]! < MIN_SPAN) si++;
    // The filter byte joins a copy of the row above that starts the row: the byte a stride
    // back is the row above's filter byte, also 0.
    if (si < spans && spanStart[si] === 0) match(1, stride);
    else literal(0);
    let last = -1; // colour of the pixel before x in this row
    let ins = 0; // this row's segments before `ins` are in the table
    for (let x = 0, seg = 0; x < width; ) {
      // Skip stretches a copy went past, or whose rest is too short to be worth one.
      while (si < spans && spanEnd[si]! - Math.max(spanStart[si]!, x) < MIN_SPAN) si++;
      let copied = 0; // pixels from x on that one match covers
      let dist = 0;
      if (si < spans && spanStart[si]! <= x) {
        copied = spanEnd[si]! - x;
        dist = stride;
        si++;
      } else if (x === curX[seg] && seg + 1 < segs) {
        for (; ins < seg; ins++) {
          table[hashOf(curCol[ins]!, curX[ins + 1]! - curX[ins]!, curCol[ins + 1]!)] =
            base + ins + 1;
        }
        const len0 = curX[seg + 1]! - x;
        const h = hashOf(curCol[seg]!, len0, curCol[seg + 1]!);
        const from = table[h]! - 1;
        table[h] = base + seg + 1;
        ins = seg + 1;
        const d = from < 0 ? 0 : y * stride + 1 + 3 * x - gPos[from]!;
        // The copy stops at the end of its source's row (the next byte there is a filter byte).
        const fromEnd = from < 0 ? 0 : (Math.floor(gPos[from]! / stride) + 1) * stride;
        if (
          d > 0 &&
          d <= WINDOW &&
          gCol[from] === curCol[seg] &&
          gLen[from] === len0 &&
          gPos[from + 1]! < fromEnd &&
          gCol[from + 1] === curCol[seg + 1]
        ) {
          // Whole segments while colours and lengths agree, then the common part of the next.
          let k = 1;
          copied = len0;
          while (
            seg + k < segs &&
            gPos[from + k]! < fromEnd &&
            gCol[from + k] === curCol[seg + k]
          ) {
            const mine = curX[seg + k + 1]! - curX[seg + k]!;
            const theirs = gLen[from + k]!;
            copied += Math.min(mine, theirs);
            if (mine !== theirs) break;
            k++;
          }
          dist = d;
        }
      }
      if (copied > 0) {
        match(3 * copied, dist);
        x += copied;
        while (curX[seg + 1]! <= x - 1) seg++;
        last = curCol[seg]!;
        if (curX[seg + 1] === x) seg++;
        continue;
      }
      const c = curCol[seg]!;
      const end = Math.min(curX[seg + 1]!, si < spans ? spanStart[si]! : width);
      const n = end - x;
      if (c === last) match(3 * n, 3);
      else {
        let rest = n;
        // A row that starts in the colour the last one ended in: that pixel is 4 bytes back.
        if (x === 0 && c === lastOfPrevRow) match(3, 4);
        else literal(pixelToken(c));
        rest--;
        if (rest > 0) match(3 * rest, 3);
      }
      last = c;
      x = end;
      if (curX[seg + 1] === x) seg++;
    }
    for (; ins + 1 < segs; ins++) {
      table[hashOf(curCol[ins]!, curX[ins + 1]! - curX[ins]!, curCol[ins + 1]!)] = base + ins + 1;
    }
    base += segs;
    lastOfPrevRow = curCol[segs - 1]!;
    [curX, prevX] = [prevX, curX];
    [curCol, prevCol] = [prevCol, curCol];
    prevSegs = segs;
    if (count >= BLOCK_TOKENS) {
      flushPending();
      writeBlock(w, tokens, count, false);
      count = 0;
    }
  }
  while (rleft === 0 && ri + 1 < runs.count && length[ri + 1] === 0) ri++;
  if (rleft !== 0 || ri + 1 < runs.count)
    throw new Error('colour runs cover more than the picture');
  flushPending();
  writeBlock(w, tokens, count, true);
  w.align();
  adlerA %= ADLER_MOD;
  adlerB %= ADLER_MOD;
  w.reserve(4);
  w.buf[w.pos++] = adlerB >>> 8;
  w.buf[w.pos++] = adlerB & 0xff;
  w.buf[w.pos++] = adlerA >>> 8;
  w.buf[w.pos++] = adlerA & 0xff;
}
