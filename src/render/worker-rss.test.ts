import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { residentPages, rssReader } from './worker-rss.ts';

const linux = process.platform === 'linux';

describe('residentPages', () => {
  it('reads the second field of statm', () => {
    expect(residentPages('40321 12345 2001 1 0 9000 0\n')).toBe(12345);
  });
  it('is NaN for text that is not statm', () => {
    expect(residentPages('')).toBeNaN();
    expect(residentPages('40321')).toBeNaN();
    expect(residentPages('40321 lots 2001')).toBeNaN();
    expect(residentPages('1 -4 2')).toBeNaN();
  });
});

describe('rssReader', () => {
  it.runIf(linux)('agrees with process.memoryUsage.rss() and follows the memory', () => {
    const read = rssReader();
    const before = read();
    const node = process.memoryUsage.rss();
    expect(before % 1024).toBe(0);
    // Read a moment apart: within 5 % (vitest's own threads allocate meanwhile).
    expect(Math.abs(before - node) / node).toBeLessThan(0.05);
    // It rereads the file each time: 64 MB touched page by page show up in the next read.
    const big = Buffer.alloc(64 * 1024 * 1024, 1);
    const after = read();
    expect(after - before).toBeGreaterThan(48 * 1024 * 1024);
    expect(big[big.length - 1]).toBe(1);
  });

  it('falls back to process.memoryUsage.rss() when the file is missing or not statm', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-rss-'));
    try {
      const bad = join(dir, 'statm');
      writeFileSync(bad, 'not a statm line\n');
      for (const path of [join(dir, 'missing'), bad]) {
        const read = rssReader(path);
        const node = process.memoryUsage.rss();
        expect(Math.abs(read() - node) / node).toBeLessThan(0.05);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
