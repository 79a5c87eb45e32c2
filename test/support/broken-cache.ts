// Real damaged cache files for the fault drills: a cache with many answers whose data
// pages are overwritten with garbage (the header and schema stay readable, so it opens
// and fails on the first lookup, mid-run), and one cut short (found at open).
import { closeSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import { openCache } from '../../src/store/cache.ts';

/** Writes `n` answers to a fresh cache file and closes it (WAL checkpointed into the file). */
export function fillCache(path: string, n = 400): void {
  const c = openCache(path);
  for (let i = 0; i < n; i++) c.set('judge', `key-${i}`, { filler: 'x'.repeat(200), i });
  c.close();
}

/** Overwrites every page after the schema page with garbage: opens, then fails on reads. */
export function corruptDataPages(path: string): void {
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  try {
    const garbage = Buffer.alloc(size - 4096, 0x5a);
    writeSync(fd, garbage, 0, garbage.length, 4096);
  } finally {
    closeSync(fd);
  }
}

/** Cuts the file to its first `pages` pages, as an interrupted copy would. */
export function truncateCache(path: string, pages = 3): void {
  truncateSync(path, pages * 4096);
}
