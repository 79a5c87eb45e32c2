// Embedded `data:` images: the only resources an SVG may carry. Raster images are kept
// when their header states a size within the pixel limit (a tiny PNG can declare a huge
// canvas: a decompression bomb); nested SVG documents are handed back to the sanitiser.

export interface DataUri {
  mime: string;
  base64: boolean;
  payload: string;
}

const RASTER_MIME = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);
export const SVG_MIME = 'image/svg+xml';

export function parseDataUri(value: string): DataUri | null {
  const v = value.trim();
  if (!/^data:/i.test(v)) return null;
  const comma = v.indexOf(',');
  if (comma < 0) return null;
  const meta = v
    .slice(5, comma)
    .split(';')
    .map((s) => s.trim().toLowerCase());
  const mime = meta[0] || 'text/plain';
  return { mime, base64: meta.includes('base64'), payload: v.slice(comma + 1) };
}

export function decodeDataUri(d: DataUri): Buffer {
  if (d.base64) return Buffer.from(d.payload.replace(/\s+/g, ''), 'base64');
  return Buffer.from(decodeURIComponentSafe(d.payload), 'utf8');
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function isRasterMime(mime: string): boolean {
  return RASTER_MIME.has(mime);
}

/** Width × height declared by a PNG, GIF, JPEG or WebP header; null when unreadable. */
export function rasterDimensions(buf: Buffer): { width: number; height: number } | null {
  if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47) {
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (buf.length >= 10 && buf.toString('latin1', 0, 3) === 'GIF') {
    return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) return jpegDimensions(buf);
  if (buf.length >= 30 && buf.toString('latin1', 0, 4) === 'RIFF') return webpDimensions(buf);
  return null;
}

function jpegDimensions(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    const len = buf.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

function webpDimensions(buf: Buffer): { width: number; height: number } | null {
  const kind = buf.toString('latin1', 12, 16);
  if (kind === 'VP8X')
    return { width: buf.readUIntLE(24, 3) + 1, height: buf.readUIntLE(27, 3) + 1 };
  if (kind === 'VP8 ')
    return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  if (kind === 'VP8L') {
    const b = buf.readUInt32LE(21);
    return { width: (b & 0x3fff) + 1, height: ((b >> 14) & 0x3fff) + 1 };
  }
  return null;
}
