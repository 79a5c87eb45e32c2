// A file a library room reads because an input named it (an eval run folder's parts.jsonl,
// summary.json or results.jsonl, a studio run, a rescored picture): read through
// readRegularFile, so a FIFO, socket, device or directory put there is refused before one
// byte is read, the bytes are bounded and the read has a deadline (issue 35). A plain
// `readFile` of a FIFO parks a libuv thread until a writer comes: `eval --out` on a folder
// whose parts.jsonl was a FIFO never ended, not even on SIGTERM.
import { statSync } from 'node:fs';
import { RubricaError } from './errors.ts';
import { type RegularFileProblem, readRegularFile } from './read-regular-file.ts';

/** The stable codes of a named input that cannot be read as a regular file. */
export type InputFileCode = 'input_not_regular_file' | 'input_too_large' | 'input_unreadable';

/** Thrown by readInputTextFile; the CLI prints its message and exits 2. */
export class InputFileError extends RubricaError<InputFileCode> {
  readonly path: string;
  constructor(code: InputFileCode, path: string, message: string) {
    super(code, `${JSON.stringify(path)}: ${message}`);
    this.path = path;
  }
}

const CODE: Record<Exclude<RegularFileProblem, 'missing'>, InputFileCode> = {
  not_file: 'input_not_regular_file',
  too_large: 'input_too_large',
  changed: 'input_unreadable',
  timeout: 'input_unreadable',
};

/**
 * Largest text file read whole: V8's longest string is ~512 MiB of one-byte characters, and
 * nothing rubrica reads whole (a run's results, a summary, a config) comes near it.
 */
export const MAX_INPUT_TEXT_BYTES = 512 * 1024 ** 2 - 64;

/**
 * Reads a regular file as bytes; null when it does not exist (ENOENT), an InputFileError for
 * anything else that is not a readable regular file of at most `maxBytes`.
 */
export async function readInputFileBytes(
  path: string,
  maxBytes: number,
  timeoutMs?: number,
): Promise<Buffer | null> {
  const got = await readRegularFile(path, { maxBytes, ...(timeoutMs ? { timeoutMs } : {}) });
  if (got.ok) return got.bytes;
  if (got.problem === 'missing') {
    if (got.errno === 'ENOENT') return null;
    throw new InputFileError('input_unreadable', path, got.message);
  }
  throw new InputFileError(CODE[got.problem], path, got.message);
}

/**
 * Deadline for reading a whole named input: a run's results.jsonl can be hundreds of MB, so
 * longer than readRegularFile's 10 s for a task's asset, but never unbounded.
 */
export const INPUT_READ_TIMEOUT_MS = 60_000;

/** readInputFileBytes as UTF-8 text (default bound MAX_INPUT_TEXT_BYTES, 60 s). */
export async function readInputTextFile(
  path: string,
  maxBytes = MAX_INPUT_TEXT_BYTES,
): Promise<string | null> {
  const bytes = await readInputFileBytes(path, maxBytes, INPUT_READ_TIMEOUT_MS);
  return bytes === null ? null : bytes.toString('utf8');
}

/**
 * For the few synchronous reads of a path derived from an input (a lock file beside --out,
 * the --cache file, a shard's summary, RUBRICA_PRICES): throws InputFileError
 * `input_not_regular_file` when the path exists and is not a regular file, so the
 * readFileSync/openSync that follows never waits on a FIFO or reads a device for ever.
 * Returns false when nothing is there. (A file swapped for a FIFO between this check and the
 * read is a local user racing themselves, not a request.)
 */
export function checkRegularFileSync(path: string): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) return false;
  if (st.isFile()) return true;
  const kind = st.isFIFO()
    ? 'a FIFO (a pipe)'
    : st.isSocket()
      ? 'a socket'
      : st.isDirectory()
        ? 'a directory'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
  throw new InputFileError('input_not_regular_file', path, `is ${kind}, not a regular file`);
}
