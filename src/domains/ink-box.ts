// The box a LaTeX page or a score is cropped to, found in JS on the pixels pngResult already
// decoded. It reproduces what sharp's trim({ background: white, threshold: 1 }) computed on a
// picture with no alpha (libvips find_trim): each band median-filtered over 3×3 (edges
// copied outwards), a pixel counts when a band's median differs from 255 by more than 1, and
// the box holds every pixel that counts — none counting gives no box (sharp then keeps the
// whole picture). Asking libvips for it cost more than decoding the page (the median runs
// over every pixel); here only the rows and columns next to the ink are filtered:
// a median under 254 needs at least five of its nine samples under 254, so nothing more than
// one pixel outside the box of such samples can count. png.test.ts compares the box with
// sharp's on real pages and on random specks, edges and lines.

/** A band value "differs from white by more than 1" (the threshold pngResult trims at). */
const INK_BELOW = 254;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The trim box of an 8-bit picture of `channels` bands (no alpha), or undefined when no pixel
 * counts. `px` holds width × height × channels bytes, row after row.
 */
export function inkBox(px: Uint8Array, width: number, height: number, channels: number) {
  const stride = width * channels;
  const dark = (x: number, y: number, b: number) => px[y * stride + x * channels + b]! < INK_BELOW;
  // Whether the 3×3 median of any band at (x, y) is under 254 (coordinates clamped: libvips
  // extends the edges by copying them before it filters).
  const counts = (x: number, y: number): boolean => {
    for (let b = 0; b < channels; b++) {
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy < 0 ? 0 : y + dy >= height ? height - 1 : y + dy;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx < 0 ? 0 : x + dx >= width ? width - 1 : x + dx;
          if (dark(xx, yy, b)) n++;
        }
      }
      if (n >= 5) return true;
    }
    return false;
  };
  const raw = darkBox(px, width, height, channels);
  if (!raw) return undefined;
  // Counting pixels lie within one pixel of the dark samples' box: search inwards from there.
  const x0 = Math.max(0, raw.left - 1);
  const x1 = Math.min(width - 1, raw.right + 1);
  const y0 = Math.max(0, raw.top - 1);
  const y1 = Math.min(height - 1, raw.bottom + 1);
  const rowCounts = (y: number, from: number, to: number) => {
    for (let x = from; x <= to; x++) if (counts(x, y)) return true;
    return false;
  };
  const colCounts = (x: number, from: number, to: number) => {
    for (let y = from; y <= to; y++) if (counts(x, y)) return true;
    return false;
  };
  let top = y0;
  while (top <= y1 && !rowCounts(top, x0, x1)) top++;
  if (top > y1) return undefined;
  let bottom = y1;
  while (!rowCounts(bottom, x0, x1)) bottom--;
  let left = x0;
  while (!colCounts(left, top, bottom)) left++;
  let right = x1;
  while (!colCounts(right, top, bottom)) right--;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** The box of every sample under 254 (inclusive edges), or undefined when there is none. */
function darkBox(px: Uint8Array, width: number, height: number, channels: number) {
  const stride = width * channels;
  const rowDark = (y: number) => {
    for (let o = y * stride, end = o + stride; o < end; o++) if (px[o]! < INK_BELOW) return true;
    return false;
  };
  let top = 0;
  while (top < height && !rowDark(top)) top++;
  if (top === height) return undefined;
  let bottom = height - 1;
  while (!rowDark(bottom)) bottom--;
  let left = width;
  let right = -1;
  for (let y = top; y <= bottom; y++) {
    const row = y * stride;
    // Only the columns left of the best left so far (right of the best right) can move it.
    for (let x = 0; x < left; x++) {
      if (sampleDark(px, row + x * channels, channels)) {
        left = x;
        break;
      }
    }
    for (let x = width - 1; x > right; x--) {
      if (sampleDark(px, row + x * channels, channels)) {
        right = x;
        break;
      }
    }
  }
  return { left, top, right, bottom };
}

function sampleDark(px: Uint8Array, o: number, channels: number): boolean {
  for (let b = 0; b < channels; b++) if (px[o + b]! < INK_BELOW) return true;
  return false;
}
