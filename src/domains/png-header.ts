// What a PNG's own header says about its pixels, read from the chunks (PNG spec §5, §11)
// without decoding anything: size, bit depth, colour type, and whether a tRNS chunk gives
// it transparency, or an iCCP chunk a colour profile. pngResult uses it to tell a plain picture — 8-bit grey, RGB or palette,
// no alpha, where flattening on white changes nothing — from one that needs more care.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_GREY_ALPHA = 4;
const COLOUR_RGBA = 6;

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** An alpha channel or a tRNS chunk: some pixel may be (partly) transparent. */
  alpha: boolean;
  /** An embedded ICC profile (iCCP), which sharp applies to the pixels as it decodes. */
  icc: boolean;
}

/** The header of a PNG, or undefined when the bytes do not start like one. */
export function pngHeader(png: Buffer): PngHeader | undefined {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return undefined;
  if (png.toString('latin1', 12, 16) !== 'IHDR' || png.readUInt32BE(8) !== 13) return undefined;
  const colourType = png[25]!;
  let alpha = colourType === COLOUR_GREY_ALPHA || colourType === COLOUR_RGBA;
  let icc = false;
  // tRNS and iCCP sit between IHDR and the first IDAT (§5.6); later chunks cannot add them.
  for (let o = 33; o + 8 <= png.length; ) {
    const type = png.toString('latin1', o + 4, o + 8);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'tRNS') alpha = true;
    if (type === 'iCCP') icc = true;
    o += 12 + png.readUInt32BE(o);
  }
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png[24]!,
    colourType,
    alpha,
    icc,
  };
}
