import { describe, expect, it } from 'vitest';
import { isCompleteDot } from './complete.ts';
import { takePngs } from './warm.ts';

describe('isCompleteDot', () => {
  it('accepts texts that end outside strings, comments, HTML labels and braces', () => {
    for (const ok of [
      'digraph { a -> b }',
      'digraph { a [label="x { y"] } // done',
      'digraph { a [label=<<b>bold</b>>] }',
      'graph { a -- b } /* c */',
      '',
    ]) {
      expect(isCompleteDot(ok), ok).toBe(true);
    }
    for (const open of [
      'digraph { a -> b',
      'digraph { a [label="x] }',
      'digraph { a } /* open',
      'digraph { a [label=<<b>x] }',
      '}{',
    ]) {
      expect(isCompleteDot(open), open).toBe(false);
    }
  });
});

describe('takePngs', () => {
  const png = (n: number) => {
    const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
    };
    return Buffer.concat([sig, chunk('IHDR', Buffer.alloc(13, n)), chunk('IEND', Buffer.alloc(0))]);
  };
  it('splits whole PNGs off a stream and keeps a partial one for later', () => {
    const a = png(1);
    const b = png(2);
    const both = Buffer.concat([a, b.subarray(0, 20)]);
    const r = takePngs(both);
    expect(r.pngs.map((p) => p.equals(a))).toEqual([true]);
    expect(r.rest.length).toBe(20);
    expect(takePngs(Buffer.concat([r.rest, b.subarray(20)])).pngs[0]!.equals(b)).toBe(true);
    expect(takePngs(Buffer.from('not a png at all')).garbage).toBe(true);
  });
});
