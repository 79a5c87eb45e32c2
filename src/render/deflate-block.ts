// Deflate's block coding (RFC 1951 §3.2.5–3.2.7), for a list of tokens already chosen by
// deflate-runs.ts: each block is written with the fixed Huffman codes or with codes built
// from the block's own symbol counts, whichever is fewer bits (both sizes are exact sums
// over the counts, so choosing costs nothing). Kept apart from the tokeniser because it knows
// nothing about pictures.
import { canonicalCodes, codeLengths } from './huffman-codes.ts';

/**
 * A token is a literal byte (0–255), a match packed as length << 16 | distance, or a whole
 * pixel's three literals as ~(r << 16 | g << 8 | b) (negative): a run's first pixel is one
 * token, not three, which halves the tokens of a drawing.
 */
export const matchToken = (length: number, distance: number): number => (length << 16) | distance;
export const pixelToken = (rgb: number): number => ~rgb;

const LEN_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
  163, 195, 227, 258,
];
const LEN_EXTRA = [
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
/** Order in which the code-length code's lengths are sent (RFC 1951 §3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

// Length → its code index (0–28), distance → its code (0–29): tables, built once, so a token
// is coded with two lookups.
const lenCode = new Uint8Array(259);
for (let c = 0; c < 29; c++) {
  const end = c === 28 ? 259 : LEN_BASE[c + 1]!;
  for (let l = LEN_BASE[c]!; l < end; l++) lenCode[l] = c;
}
const distCode = new Uint8Array(32769);
for (let c = 0; c < 30; c++) {
  const end = c === 29 ? 32769 : DIST_BASE[c + 1]!;
  for (let d = DIST_BASE[c]!; d < end; d++) distCode[d] = c;
}

/** Bits written least significant first into a growing buffer (deflate's bit order). */
export class BitWriter {
  buf: Uint8Array;
  pos = 0;
  /** Bits not yet in buf (fewer than 8), and how many. */
  acc = 0;
  n = 0;

  constructor(bytes: number) {
    this.buf = new Uint8Array(bytes);
  }

  /** Room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.pos + bytes + 8 <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + bytes + 8));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** `len` ≤ 24 bits of `value`; the caller reserved room. */
  bits(value: number, len: number): void {
    this.acc |= value << this.n;
    this.n += len;
    while (this.n >= 8) {
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  /** Pads to a byte boundary with zero bits. */
  align(): void {
    if (this.n > 0) this.bits(0, 8 - this.n);
  }
}

const FIXED_LIT = new Uint8Array(288).map((_, s) => (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8));
const FIXED_DIST = new Uint8Array(30).fill(5);
const FIXED_LIT_CODES = new Uint16Array(288);
const FIXED_DIST_CODES = new Uint16Array(30);
canonicalCodes(FIXED_LIT, FIXED_LIT_CODES);
canonicalCodes(FIXED_DIST, FIXED_DIST_CODES);

// Per-block scratch, reused: blocks are written one at a time on one thread.
const litFreq = new Uint32Array(286);
const distFreq = new Uint32Array(30);
const litLen = new Uint8Array(286);
const distLen = new Uint8Array(30);
const litCodes = new Uint16Array(286);
const distCodes = new Uint16Array(30);
const clFreq = new Uint32Array(19);
const clLen = new Uint8Array(19);
const clCodes = new Uint16Array(19);
const clSyms = new Uint16Array(286 + 30); // code-length symbol | repeat << 8

/** Sum of count × (code length + extra bits) over the lit/len and distance alphabets. */
function payloadBits(lit: Uint8Array, dist: Uint8Array): number {
  let bits = 0;
  for (let s = 0; s < 286; s++)
    bits += litFreq[s]! * (lit[s]! + (s > 256 ? LEN_EXTRA[s - 257]! : 0));
  for (let d = 0; d < 30; d++) bits += distFreq[d]! * (dist[d]! + DIST_EXTRA[d]!);
  return bits;
}

/** Writes `tokens[0..count)` as one block, fixed or dynamic codes, whichever is shorter. */
export function writeBlock(w: BitWriter, tokens: Int32Array, count: number, final: boolean): void {
  litFreq.fill(0);
  distFreq.fill(0);
  litFreq[256] = 1;
  for (let i = 0; i < count; i++) {
    const t = tokens[i]!;
    if (t < 0) {
      const c = ~t;
      litFreq[c >>> 16] = litFreq[c >>> 16]! + 1;
      litFreq[(c >>> 8) & 0xff] = litFreq[(c >>> 8) & 0xff]! + 1;
      litFreq[c & 0xff] = litFreq[c & 0xff]! + 1;
    } else if (t < 256) litFreq[t] = litFreq[t]! + 1;
    else {
      const l = 257 + lenCode[t >>> 16]!;
      const d = distCode[t & 0xffff]!;
      litFreq[l] = litFreq[l]! + 1;
      distFreq[d] = distFreq[d]! + 1;
    }
  }
  codeLengths(litFreq, 15, litLen);
  codeLengths(distFreq, 15, distLen);
  let hlit = 286;
  while (litLen[hlit - 1] === 0) hlit--;
  let hdist = 30;
  while (hdist > 1 && distLen[hdist - 1] === 0) hdist--;
  // The lit/len and distance lengths as one sequence, runs coded with 16 (repeat the last
  // length 3–6 times), 17 (3–10 zeros) and 18 (11–138 zeros).
  const all = new Uint8Array(hlit + hdist);
  all.set(litLen.subarray(0, hlit));
  all.set(distLen.subarray(0, hdist), hlit);
  clFreq.fill(0);
  let ncl = 0;
  for (let i = 0; i < all.length; ) {
    const l = all[i]!;
    let run = 1;
    while (i + run < all.length && all[i + run] === l) run++;
    if (l === 0 && run >= 3) {
      const r = Math.min(run, 138);
      clSyms[ncl++] = (r >= 11 ? 18 : 17) | (r << 8);
      clFreq[r >= 11 ? 18 : 17] = clFreq[r >= 11 ? 18 : 17]! + 1;
      i += r;
    } else if (l !== 0 && run >= 4) {
      clSyms[ncl++] = l;
      clFreq[l] = clFreq[l]! + 1;
      const r = Math.min(run - 1, 6);
      clSyms[ncl++] = 16 | (r << 8);
      clFreq[16] = clFreq[16]! + 1;
      i += 1 + r;
    } else {
      clSyms[ncl++] = l;
      clFreq[l] = clFreq[l]! + 1;
      i++;
    }
  }
  codeLengths(clFreq, 7, clLen);
  let hclen = 19;
  while (hclen > 4 && clLen[CL_ORDER[hclen - 1]!] === 0) hclen--;
  let dynamicBits = 14 + 3 * hclen + payloadBits(litLen, distLen);
  for (let s = 0; s < 19; s++) dynamicBits += clFreq[s]! * clLen[s]!;
  dynamicBits += clFreq[16]! * 2 + clFreq[17]! * 3 + clFreq[18]! * 7;
  const fixedBits = payloadBits(FIXED_LIT, FIXED_DIST);

  w.reserve(Math.ceil(Math.min(dynamicBits, fixedBits) / 8) + 16);
  let lc: Uint16Array;
  let ll: Uint8Array;
  let dc: Uint16Array;
  let dl: Uint8Array;
  if (fixedBits <= dynamicBits) {
    w.bits(final ? 1 : 0, 1);
    w.bits(1, 2);
    [lc, ll, dc, dl] = [FIXED_LIT_CODES, FIXED_LIT, FIXED_DIST_CODES, FIXED_DIST];
  } else {
    w.bits(final ? 1 : 0, 1);
    w.bits(2, 2);
    w.bits(hlit - 257, 5);
    w.bits(hdist - 1, 5);
    w.bits(hclen - 4, 4);
    for (let i = 0; i < hclen; i++) w.bits(clLen[CL_ORDER[i]!]!, 3);
    canonicalCodes(clLen, clCodes);
    for (let i = 0; i < ncl; i++) {
      const s = clSyms[i]! & 0xff;
      const r = clSyms[i]! >>> 8;
      w.bits(clCodes[s]!, clLen[s]!);
      if (s === 16) w.bits(r - 3, 2);
      else if (s === 17) w.bits(r - 3, 3);
      else if (s === 18) w.bits(r - 11, 7);
    }
    canonicalCodes(litLen, litCodes);
    canonicalCodes(distLen, distCodes);
    [lc, ll, dc, dl] = [litCodes, litLen, distCodes, distLen];
  }
  // The hot loop keeps the bit writer in locals. Each put is ≤ 20 bits on top of the ≤ 7 bits
  // waiting, so the accumulator stays within 32 bits; a distance's extra bits (≤ 13) go
  // after its code (≤ 15), not together.
  const buf = w.buf;
  let pos = w.pos;
  let acc = w.acc;
  let nb = w.n;
  for (let i = 0; i < count; i++) {
    const t = tokens[i]!;
    if (t < 0) {
      const c = ~t;
      const r = c >>> 16;
      const g = (c >>> 8) & 0xff;
      const b = c & 0xff;
      acc |= lc[r]! << nb;
      nb += ll[r]!;
      if (nb >= 16) {
        buf[pos++] = acc & 0xff;
        buf[pos++] = (acc >>> 8) & 0xff;
        acc >>>= 16;
        nb -= 16;
      } else if (nb >= 8) {
        buf[pos++] = acc & 0xff;
        acc >>>= 8;
        nb -= 8;
      }
      acc |= lc[g]! << nb;
      nb += ll[g]!;
      if (nb >= 16) {
        buf[pos++] = acc & 0xff;
        buf[pos++] = (acc >>> 8) & 0xff;
        acc >>>= 16;
        nb -= 16;
      } else if (nb >= 8) {
        buf[pos++] = acc & 0xff;
        acc >>>= 8;
        nb -= 8;
      }
      acc |= lc[b]! << nb;
      nb += ll[b]!;
    } else if (t < 256) {
      acc |= lc[t]! << nb;
      nb += ll[t]!;
    } else {
      const len = t >>> 16;
      const dist = t & 0xffff;
      const l = lenCode[len]!;
      acc |= (lc[257 + l]! | ((len - LEN_BASE[l]!) << ll[257 + l]!)) << nb;
      nb += ll[257 + l]! + LEN_EXTRA[l]!;
      while (nb >= 8) {
        buf[pos++] = acc & 0xff;
        acc >>>= 8;
        nb -= 8;
      }
      const d = distCode[dist]!;
      acc |= dc[d]! << nb;
      nb += dl[d]!;
      while (nb >= 8) {
        buf[pos++] = acc & 0xff;
        acc >>>= 8;
        nb -= 8;
      }
      acc |= (dist - DIST_BASE[d]!) << nb;
      nb += DIST_EXTRA[d]!;
    }
    while (nb >= 8) {
      buf[pos++] = acc & 0xff;
      acc >>>= 8;
      nb -= 8;
    }
  }
  w.pos = pos;
  w.acc = acc;
  w.n = nb;
  w.bits(lc[256]!, ll[256]!);
}
