import { describe, expect, it } from 'vitest';
import { readLikeOrsClient } from '../../../test/support/ors-reader.ts';
import { asciiJson, CHUNK_CHARS, cutForReader, resultEvents } from './sse.ts';

const reassemble = (stream: string) =>
  readLikeOrsClient(stream)
    .filter(([e]) => e === 'chunk' || e === 'end')
    .map(([, d]) => d)
    .join('');

describe('ORS result events', () => {
  it('survive the clients’ whitespace stripping wherever a cut falls', () => {
    // Strings full of spaces, so many natural cuts land on one.
    for (const n of [1, 100, 5000, 40_000]) {
      const value = { text: 'a b  c   '.repeat(n), n, more: ['  x', ' y '] };
      const json = asciiJson(value);
      const stream = resultEvents(json);
      expect(JSON.parse(reassemble(stream))).toEqual(value);
    }
  });

  it('never start a chunk with whitespace and keep chunks to the chunk size', () => {
    const text = asciiJson({ s: ' '.repeat(3) + 'z '.repeat(9000) });
    const pieces = cutForReader(text, 64);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces.slice(1)) expect(p[0]).not.toMatch(/\s/);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(64);
  });

  it('carry a picture over 128 KiB in lines the reader accepts, non-ASCII intact', () => {
    const value = { data: Buffer.alloc(300_000, 7).toString('base64'), note: 'ﬁ 漢字 😀' };
    const stream = resultEvents(asciiJson(value));
    for (const line of stream.split('\n')) expect(line.length).toBeLessThan(CHUNK_CHARS + 16);
    expect(JSON.parse(reassemble(stream))).toEqual(value);
  });
});
