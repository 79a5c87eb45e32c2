// `--data-root DIR` (score, serve, inspect) and `--assets FILE` (inspect): where the `{ path }`
// assets of prompts and rollouts are read from, and, for a single completion, its assets as a
// JSON object (name → inline content or { "path": … }). Light: nothing is read here but the
// flags; src/domains/assets.ts resolves them per item.
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { type AssetsInput, AssetsInputSchema } from '../core/assets.ts';
import { readInputText } from './input-file.ts';
import { UsageError } from './usage-error.ts';

const DATA_ROOT_HELP =
  'directory the { "path": … } assets of prompts and rollouts are read from (a path may not leave it)';

/** Adds `--data-root <dir>` to a command. */
export function addDataRootFlag(cmd: Command): Command {
  return cmd.option('--data-root <dir>', DATA_ROOT_HELP);
}

/** The data root, checked to be a directory (a usage error otherwise). */
export function dataRootFlag(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`--data-root: not a directory: ${dir}`);
  return dir;
}

/** `--assets FILE`: the JSON object of one completion's assets. */
export async function assetsFileFlag(file: string | undefined): Promise<AssetsInput | undefined> {
  if (file === undefined) return undefined;
  // Checked first: readFile of a FIFO parks a thread until a writer comes (issue 35).
  const text = readInputText('--assets', file, 64);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--assets: ${file} is not JSON`);
  }
  const r = AssetsInputSchema.safeParse(parsed);
  if (!r.success) {
    throw new UsageError(`--assets: ${file} must be an object of name → content or { "path": … }`);
  }
  return r.data;
}
