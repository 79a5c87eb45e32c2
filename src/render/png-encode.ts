// The PNG a judge sees, written on the render worker's own thread: an 8-bit RGB image, every
// row unfiltered, one IDAT whose zlib stream deflate-runs.ts writes straight from the flatten
// pass's colour runs (no row bytes, no match search: the cost follows the runs, not the
// pixels). Until this round the rows were built and Node's zlib deflated them at level 1;
// the pixels are the same, the bytes are not (see docs/rendering.md "Performance"). The
// container is a few fixed chunks (PNG spec §5), so no package is needed for it; decoders
// read it back in png-encode.test.ts.
//
// node:zlib (for the chunks' CRC-32) is loaded on first use, not at import: it costs ~4 ms,
// and a cold render worker (`rubrica inspect`) would pay them before its first job.
// pngEncoder() starts the load; rasterize.ts calls it before librsvg draws, so the load
// overlaps the drawing.
import type * as Zlib from 'node:zlib';
import { BitWriter } from './deflate-block.ts';
import { deflateRuns } from './deflate-runs.ts';
import type { ColourRuns } from './picture-stats.ts';

type Encode = (runs: ColourRuns, width: number, height: number) => Buffer;
let zlib: typeof Zlib | undefined;
let loading: Promise<Encode> | undefined;

/** encodeRunsPng, once node:zlib is loaded (started by the first call). */
export function pngEncoder(): Promise<Encode> {
  loading ??= import('node:zlib').then((m) => {
    zlib = m;
    return encodeRunsPng;
  });
  return loading;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOUR_RGB = 2;
/** Signature, IHDR chunk (8 + 13 + 4), IDAT's length and type: the zlib stream starts here. */
const IDAT_DATA = 8 + 25 + 8;

/** The CRC-32 of the chunk whose type starts at `at` and whose data ends at `end`. */
function sealChunk(png: Buffer, at: number, end: number): void {
  png.writeUInt32BE(end - at - 4, at - 4);
  png.writeUInt32BE(zlib!.crc32(png.subarray(at, end)), end);
}

/**
 * RGB PNG of a picture given as its runs of equal colour in pixel order (colour packed
 * r<<16 | g<<8 | b; flattenAndMeasure builds them). Throws when the runs do not cover the
 * picture exactly. The whole file is written in one buffer, the zlib stream in place after
 * the headers, so nothing is copied. Reached through pngEncoder().
 */
function encodeRunsPng(runs: ColourRuns, width: number, height: number): Buffer {
  // A first guess at the size (the writer grows): a drawing takes ~6 bytes a run.
  const w = new BitWriter(IDAT_DATA + 64 + 8 * runs.count + 4 * height);
  w.pos = IDAT_DATA;
  deflateRuns(runs, width, height, w);
  w.reserve(16);
  const idatEnd = w.pos;
  const png = Buffer.from(w.buf.buffer, w.buf.byteOffset, idatEnd + 16);
  png.set(SIGNATURE, 0);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png[24] = 8; // bits per sample
  png[25] = COLOUR_RGB;
  png[26] = 0; // compression: deflate
  png[27] = 0; // filter method: adaptive (each row says which; ours say none)
  png[28] = 0; // no interlace
  sealChunk(png, 12, 29);
  png.write('IDAT', IDAT_DATA - 4, 'latin1');
  sealChunk(png, IDAT_DATA - 4, idatEnd);
  png.write('IEND', idatEnd + 8, 'latin1');
  sealChunk(png, idatEnd + 8, idatEnd + 12);
  return png;
}
