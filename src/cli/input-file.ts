// The one way the CLI takes an input file or folder from a flag: checked before any work
// starts (before a model client, a server or a worker), so a missing or unreadable input is
// one line naming the flag and the path, exit 2 — never a stack trace half-way through a
// run. A directory given as a file, a file given as a folder and a file the process may not
// read are refused the same way. `-` (standard input) passes where a command accepts it.
import { closeSync, openSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

/** Why a path cannot be read, in words (for an fs error code). */
export function unreadableReason(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return code ?? 'cannot be read';
  }
}

/**
 * What a path that is not a regular file or a folder is, in words, or null for one that is.
 * A FIFO, socket or device is refused before it is opened: a FIFO's open waits for a writer
 * forever, a device never ends (issue 35). A shell's `<(…)` is a pipe too: write it to a file
 * (or give `-` where the command reads standard input).
 */
function special(st: Stats): string | null {
  if (st.isFile() || st.isDirectory()) return null;
  if (st.isFIFO()) return 'is a FIFO (a pipe), not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a regular file';
  return 'is not a regular file';
}

const fail = (flag: string, path: string, reason: string): never => {
  throw new UsageError(`${flag}: cannot read ${JSON.stringify(path)}: ${reason}`);
};

/**
 * Checks that `path`, given with `flag` (e.g. `--in`, or `<completion>` for an argument), is
 * a readable file, and returns it. Throws a UsageError (exit 2) otherwise.
 */
export function inputFile(flag: string, path: string): string {
  let fd: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) fail(flag, path, 'is a directory, not a file');
    const odd = special(st);
    if (odd) fail(flag, path, odd);
    fd = openSync(path, 'r');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return fail(flag, path, unreadableReason((e as NodeJS.ErrnoException).code));
  }
  closeSync(fd);
  return path;
}

/** inputFile for an optional flag: undefined passes through. */
export function optionalInputFile(flag: string, path: string | undefined): string | undefined {
  return path === undefined ? undefined : inputFile(flag, path);
}

/**
 * Most bytes readInputText reads whole (a config, a calibration, weights, an assets object):
 * a larger file is refused before it is read rather than filling the heap.
 */
export const MAX_INPUT_TEXT_MB = 256;

/** Reads a checked input file (a regular file of at most `maxMb` MiB) as UTF-8 text. */
export function readInputText(flag: string, path: string, maxMb = MAX_INPUT_TEXT_MB): string {
  inputFile(flag, path);
  try {
    const size = statSync(path).size;
    if (size > maxMb * 1024 ** 2) fail(flag, path, `is ${size} bytes, over the ${maxMb} MiB limit`);
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return fail(flag, path, unreadableReason((e as NodeJS.ErrnoException).code));
  }
}

/** Checks that `path` is a folder whose entries can be listed, and returns it. */
export function inputDir(flag: string, path: string): string {
  try {
    if (!statSync(path).isDirectory()) fail(flag, path, 'is a file, not a directory');
    readdirSync(path);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    fail(flag, path, unreadableReason((e as NodeJS.ErrnoException).code));
  }
  return path;
}

/** A file or a folder (for inputs that accept either, like align's `--pred`), checked. */
export function inputFileOrDir(flag: string, path: string): string {
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch (e) {
    return fail(flag, path, unreadableReason((e as NodeJS.ErrnoException).code));
  }
  return dir ? inputDir(flag, path) : inputFile(flag, path);
}

const INPUT_SYSCALLS = new Set(['open', 'stat', 'lstat', 'access', 'scandir', 'opendir', 'read']);
const PATH_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'ELOOP']);

/**
 * The one line for a file-system error that escaped a command's checks (a path read later in
 * a run), or null when `err` is not such an error. main.ts prints it and exits 2.
 */
export function fsErrorLine(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException | null;
  if (!(e instanceof Error) || typeof e.path !== 'string' || typeof e.code !== 'string')
    return null;
  if (!INPUT_SYSCALLS.has(e.syscall ?? '') || !PATH_CODES.has(e.code)) return null;
  return `${JSON.stringify(e.path)}: ${unreadableReason(e.code)}`;
}
