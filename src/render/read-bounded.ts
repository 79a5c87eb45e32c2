// Reads an SVG input (a file or standard input) but never more than the render byte limit
// plus one: `rubrica render /dev/zero` used to grow to gigabytes before the size check
// could refuse it. Over the limit is reported, not read.
import { createReadStream } from 'node:fs';

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; readBytes: number };

export async function readBounded(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
): Promise<BoundedRead> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c);
    n += b.length;
    if (n > maxBytes) {
      // Stop the source: the rest is never read.
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      return { ok: false, readBytes: n };
    }
    chunks.push(b);
  }
  return { ok: true, bytes: Buffer.concat(chunks, n) };
}

export function readFileBounded(path: string, maxBytes: number): Promise<BoundedRead> {
  return readBounded(createReadStream(path, { highWaterMark: 64 * 1024 }), maxBytes);
}
