// One writer per output file. Two `score` runs appending to the same scores.jsonl would
// write every id twice, so the output gets a lock file beside it (`<out>.lock`) created
// with O_EXCL and holding the writer's pid, host and command. A lock whose pid is dead on
// this host is stale (the run was killed) and is taken over; a lock from another host
// (a shared file system) cannot be checked and is refused with the path to delete.
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { RubricaError } from '../core/errors.ts';
import { checkRegularFileSync } from '../core/read-input-text.ts';

export class OutputLockedError extends RubricaError<'output_locked'> {
  constructor(message: string) {
    super('output_locked', message);
  }
}

interface LockInfo {
  pid: number;
  host: string;
  started: string;
  command: string;
}

export interface OutputLock {
  readonly path: string;
  /** Set when a stale lock of a dead process was replaced: that process's pid. */
  readonly tookOverFrom: number | null;
  release(): void;
}

function readInfo(path: string): LockInfo | null {
  try {
    // A FIFO put where the lock goes is refused (throws, read as no lock), never waited on.
    checkRegularFileSync(path);
    const info = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    return typeof info.pid === 'number' ? (info as LockInfo) : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    command: process.argv.slice(2).join(' '),
  };
  writeSync(fd, `${JSON.stringify(info)}\n`);
  closeSync(fd);
  return true;
}

/** Removes a stale lock only if it is still the one we judged stale (another taker may have won). */
function removeStale(path: string, stalePid: number): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // already gone: someone else took it over
  }
  const moved = readInfo(aside);
  if (moved?.pid !== stalePid) {
    // We moved a fresh lock of a process that won the race: put it back.
    try {
      linkSync(aside, path);
    } catch {
      // EEXIST: a third process holds it now; either way it is not ours.
    }
  }
  unlinkSync(aside);
}

let exitHooked = false;
const held = new Set<string>();

/** Takes the lock of `target` or throws {@link OutputLockedError}. */
export function lockOutput(target: string): OutputLock {
  const path = `${target}.lock`;
  let tookOverFrom: number | null = null;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path)) break;
    const info = readInfo(path);
    if (info && info.host === hostname() && info.pid === process.pid && held.has(path))
      throw new OutputLockedError(`${target} is already open for writing in this process`);
    // Our own pid but not held: a lock this process left behind, so stale too.
    const stale =
      info !== null && info.host === hostname() && (info.pid === process.pid || !alive(info.pid));
    if (!stale || attempt >= 3) {
      const who = info
        ? `pid ${info.pid} on ${info.host}, started ${info.started}: rubrica ${info.command}`
        : 'a lock file that cannot be read';
      throw new OutputLockedError(
        `${target} is being written by another run (${who}). Wait for it to finish, or use another --out; ` +
          `if no such run exists, delete ${path}`,
      );
    }
    removeStale(path, info.pid);
    tookOverFrom = info.pid;
  }
  held.add(path);
  if (!exitHooked) {
    exitHooked = true;
    // A process that exits without closing (an uncaught error) still frees its locks.
    process.once('exit', () => {
      for (const p of held) {
        try {
          unlinkSync(p);
        } catch {}
      }
    });
  }
  let released = false;
  return {
    path,
    tookOverFrom,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      // Only remove the file if it is still ours.
      if (readInfo(path)?.pid === process.pid) {
        try {
          unlinkSync(path);
        } catch {}
      }
    },
  };
}
