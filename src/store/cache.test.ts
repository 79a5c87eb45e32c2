// The SQLite answer cache: round trip, first writer wins, and two processes writing the
// same file at once without losing or corrupting entries.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCache } from './cache.ts';

const writer = new URL('../../test/score/support/cache-writer.ts', import.meta.url).pathname;

/** Runs one writer; resolves with its exit code and the [first, last] write times it printed. */
function runWriter(
  path: string,
  who: string,
  count: number,
  barrier: string,
): Promise<{ code: number | null; span: [number, number] }> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', writer, path, who, String(count), barrier];
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code, span: JSON.parse(out || '[0,0]') as [number, number] }));
  });
}

describe('openCache', () => {
  it('creates its directory, round-trips JSON and keeps the first value of a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-cache-'));
    const path = join(dir, 'nested', 'cache.sqlite');
    const c = openCache(path);
    expect(c.get('judge', 'k')).toBeUndefined();
    c.set('judge', 'k', { scores: [{ key: 'a', score: 0.5 }] });
    c.set('judge', 'k', { scores: [] });
    expect(c.get('judge', 'k')).toEqual({ scores: [{ key: 'a', score: 0.5 }] });
    expect(c.get('author', 'k')).toBeUndefined();
    expect(c.count('judge')).toBe(1);
    c.close();
    const again = openCache(path);
    expect(again.count('judge')).toBe(1);
    again.close();
  });

  it('is safe for two processes writing the same file at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-cache-'));
    const path = join(dir, 'cache.sqlite');
    openCache(path).close(); // create the schema first; both children then race on rows
    const barrier = join(dir, 'barrier');
    const writers = Promise.all([
      runWriter(path, 'a', 3000, barrier),
      runWriter(path, 'b', 3000, barrier),
    ]);
    // Both children opened the cache and wait: let them go together.
    while (!existsSync(`${barrier}.ready-a`) || !existsSync(`${barrier}.ready-b`)) {
      await new Promise((r) => setTimeout(r, 5));
    }
    writeFileSync(`${barrier}.go`, '');
    const [a, b] = await writers;
    expect([a.code, b.code]).toEqual([0, 0]);
    // The two writers really wrote at the same time.
    expect(a.span[0]).toBeLessThan(b.span[1]);
    expect(b.span[0]).toBeLessThan(a.span[1]);
    const c = openCache(path);
    expect(c.count('judge')).toBe(3000);
    for (let k = 0; k < 3000; k++) {
      expect(c.get<{ k: number }>('judge', `key-${k}`)?.k).toBe(k);
    }
    c.close();
  });
});
