// Reads a file whose path came from a request or an input line without ever blocking the
// event loop or a thread forever (issue 35). A synchronous `open` of a FIFO waits for a
// writer and froze `serve` whole; an async `readFile` of one parks a libuv thread, and four
// of them stall every file read of the process. So: the file is opened O_NONBLOCK (a FIFO
// opens at once, a device does not wait for carrier), fstat'ed to be a regular file before
// one byte is read, read through fs/promises with a bound on bytes and on time, and a file
// whose size changes while it is read (someone appending) is refused rather than read
// forever. Nothing here throws for what the file is: every outcome is a value.
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

/** Why a file could not be read: each maps to one stable per-item code upstream. */
export type RegularFileProblem =
  | 'missing' // no such file, or no permission to open it
  | 'not_file' // a FIFO, socket, device or directory
  | 'too_large' // more bytes than the bound
  | 'changed' // it grew or shrank while read
  | 'timeout'; // the read did not finish within the time bound

export type RegularFileRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; problem: RegularFileProblem; message: string; errno?: string };

export interface RegularFileLimits {
  /** Most bytes accepted; one more is `too_large`. */
  maxBytes: number;
  /** Deadline for open + stat + read, in ms (default 10 s). */
  timeoutMs?: number;
}

/** Default deadline: a local regular file of the sizes rubrica reads takes milliseconds. */
export const DEFAULT_FILE_READ_TIMEOUT_MS = 10_000;

// O_NOCTTY: a terminal device named by a request must never become our controlling tty.
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const CHUNK = 64 * 1024;

function notFile(st: Stats): RegularFileRead {
  const kind = st.isFIFO()
    ? 'a FIFO'
    : st.isSocket()
      ? 'a socket'
      : st.isDirectory()
        ? 'a directory'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
  return { ok: false, problem: 'not_file', message: `is ${kind}, not a regular file` };
}

async function readOpen(fh: FileHandle, max: number): Promise<RegularFileRead> {
  const st = await fh.stat();
  if (!st.isFile()) return notFile(st);
  if (st.size > max) {
    return { ok: false, problem: 'too_large', message: `is ${st.size} bytes (limit ${max})` };
  }
  // One byte past the stated size is read on purpose: only then does a file that grows show.
  const buf = Buffer.alloc(Math.min(st.size, max) + 1);
  let n = 0;
  for (;;) {
    const want = Math.min(CHUNK, buf.length - n);
    if (want === 0) break;
    const { bytesRead } = await fh.read(buf, n, want, n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  if (n !== st.size) {
    if (n > max) return { ok: false, problem: 'too_large', message: `grew past ${max} bytes` };
    return {
      ok: false,
      problem: 'changed',
      message: `changed size while read (${st.size} bytes at open, ${n} read)`,
    };
  }
  return { ok: true, bytes: buf.subarray(0, n) };
}

/**
 * Reads one regular file of at most `maxBytes` bytes within `timeoutMs`. A path that is not
 * a regular file is never read (not even opened blocking); on timeout the handle is closed
 * once the pending read returns, and the caller already has its answer.
 */
export async function readRegularFile(
  path: string,
  limits: RegularFileLimits,
): Promise<RegularFileRead> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_FILE_READ_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<RegularFileRead>((res) => {
    timer = setTimeout(
      () => res({ ok: false, problem: 'timeout', message: `was not read within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const work = (async (): Promise<RegularFileRead> => {
    let fh: FileHandle;
    try {
      fh = await open(path, FLAGS);
    } catch (e) {
      // A socket cannot be opened at all (ENXIO): it is still "not a regular file", not absent.
      const st = await stat(path).catch(() => null);
      if (st && !st.isFile()) return notFile(st);
      const errno = (e as NodeJS.ErrnoException).code;
      return {
        ok: false,
        problem: 'missing',
        message: `cannot be opened (${errno ?? (e as Error).message})`,
        ...(errno ? { errno } : {}),
      };
    }
    try {
      return await readOpen(fh, limits.maxBytes);
    } catch (e) {
      return {
        ok: false,
        problem: 'missing',
        message: `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      };
    } finally {
      await fh.close().catch(() => undefined);
    }
  })();
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
