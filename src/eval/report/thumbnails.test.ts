import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from '../../render/sharp.ts';
import type { EvalRecord } from '../types.ts';
import { loadThumbnails } from './thumbnails.ts';

describe('loadThumbnails', () => {
  it('skips a picture path that names a FIFO instead of waiting on it (issue 35)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-thumbs-'));
    execFileSync('mkfifo', [join(dir, 'pipe.png')]);
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 255 } },
    })
      .png()
      .toBuffer();
    writeFileSync(join(dir, 'a.png'), png);
    const records = [
      { id: 'a', image: 'a.png' },
      { id: 'fifo', image: 'pipe.png' },
    ] as unknown as EvalRecord[];
    // The old readFile of the FIFO parked until a writer came: bounded here to fail, not hang.
    const got = await Promise.race([
      loadThumbnails(dir, records),
      new Promise<'hung'>((res) => setTimeout(() => res('hung'), 10_000).unref()),
    ]);
    expect(got === 'hung' ? 'hung' : [...got.keys()]).toEqual(['a']);
  });
});
