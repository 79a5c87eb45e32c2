// The render worker's resident memory, sent with every reply so the pool can retire a worker
// that grew. process.memoryUsage.rss() opens, reads and closes /proc/self/stat each time;
// right after a render (libvips' threads still winding down) that call took 0.9–1.7 ms of
// wall time on average in a pool worker, against 0.02–0.04 ms for a read of /proc/self/statm
// through a descriptor kept open (bench/render-latency.ts, 300 Fluent Emoji, 4 alternated
// runs; docs/rendering.md, Performance). Both report the kernel's same count (get_mm_rss):
// statm in pages, stat's converted with the page size, which is taken from the two read
// once side by side. Where /proc is missing or unreadable, the Node call is used.
import { closeSync, openSync, readSync } from 'node:fs';

type Reader = () => number;

const nodeRss: Reader = () => process.memoryUsage.rss();

/** Resident pages from /proc/self/statm's text ("size resident shared …"), or NaN. */
export function residentPages(statm: string): number {
  const fields = statm.trim().split(/\s+/);
  const pages = fields.length >= 2 ? Number(fields[1]) : Number.NaN;
  return Number.isSafeInteger(pages) && pages >= 0 ? pages : Number.NaN;
}

/**
 * A reader of this process's resident set size in bytes. On Linux it keeps
 * /proc/self/statm open and rereads it from offset 0 (procfs regenerates the text on each
 * read); elsewhere, or if anything about that file is off, it is process.memoryUsage.rss().
 */
export function rssReader(path = '/proc/self/statm'): Reader {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return nodeRss;
  }
  const buf = Buffer.alloc(256);
  const readPages = (): number => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    return residentPages(buf.toString('latin1', 0, n));
  };
  try {
    const pages = readPages();
    const bytes = nodeRss();
    // The page size: a power of two, so the ratio of two reads a moment apart rounds to it.
    const pageSize = 2 ** Math.round(Math.log2(bytes / pages));
    if (!(pages > 0) || !Number.isFinite(pageSize) || pageSize < 1024) throw new Error('statm');
    return () => {
      try {
        const p = readPages();
        return Number.isNaN(p) ? nodeRss() : p * pageSize;
      } catch {
        return nodeRss();
      }
    };
  } catch {
    closeSync(fd);
    return nodeRss;
  }
}
