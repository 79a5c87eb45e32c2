import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from '../render/sharp.ts';
import { STUDIO_PICTURE_PX, servedPicture } from './picture.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-picture-'));

// Whatever servedPicture gives, or 'hung' after 10 s (the old code waited on a FIFO forever).
const within = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<'hung'>((res) => setTimeout(() => res('hung'), 10_000).unref())]);

describe('servedPicture', () => {
  it('serves a run picture as one PNG of the study size', async () => {
    const png = await sharp({
      create: { width: 10, height: 20, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    writeFileSync(join(dir, 'a.png'), png);
    const out = await servedPicture(join(dir, 'a.png'));
    expect(Buffer.isBuffer(out)).toBe(true);
    const meta = await sharp(out as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([STUDIO_PICTURE_PX, STUDIO_PICTURE_PX]);
  });

  it('refuses a FIFO or a device named by a results line instead of parking a thread', async () => {
    const fifo = join(dir, 'pipe.png');
    execFileSync('mkfifo', [fifo]);
    for (const p of [fifo, '/dev/zero']) {
      const out = await within(servedPicture(p));
      expect(out === 'hung' || Buffer.isBuffer(out) ? out : out.problem, p).toBe('not_file');
    }
  });
});
