// Resolves a record's `assets` (src/core/assets.ts) into bytes: inline content as written,
// `{ path }` read from the data root. A path must stay inside the root after every symlink is
// followed (realpath), name a regular file (checked on the open handle, opened non-blocking),
// and the task's files must fit the limits in bytes and read time; else the
// item gets a stable code (asset_invalid, asset_missing, asset_outside_root,
// assets_too_large) and is never rendered. Nothing here throws for bad input.
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import {
  type AssetErrorCode,
  type AssetLimits,
  type AssetsInput,
  assetNameProblem,
  DEFAULT_ASSET_LIMITS,
  type ResolvedAssets,
} from '../core/assets.ts';
import { type ErrorValue, makeError } from '../core/errors.ts';
import { readRegularFile } from '../core/read-regular-file.ts';

/** Where `{ path }` assets are read from, and the limits. */
export interface ResolveAssetsOptions {
  /** The data root (`--data-root`); without it only inline assets are accepted. */
  dataRoot?: string | null;
  limits?: Partial<AssetLimits>;
  /** Deadline for reading each `{ path }` file, in ms (default 10 s). */
  readTimeoutMs?: number;
}

/** The assets as bytes, or the first problem with them. */
export type AssetsResolution =
  | { ok: true; assets: ResolvedAssets }
  | { ok: false; error: ErrorValue<AssetErrorCode> };

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolves a record's assets; absent or empty gives `{}`. Asynchronous and bounded: a path
 * naming a FIFO, socket, device or directory, a file that changes while read, or one that
 * is not read in time is a per-item code, and the event loop never waits on it.
 */
export async function resolveAssets(
  input: AssetsInput | null | undefined,
  opts: ResolveAssetsOptions = {},
): Promise<AssetsResolution> {
  const lim = { ...DEFAULT_ASSET_LIMITS, ...opts.limits };
  const fail = (code: AssetErrorCode, message: string): AssetsResolution => ({
    ok: false,
    error: makeError(code, message),
  });
  const entries = Object.entries(input ?? {});
  if (entries.length > lim.maxCount) {
    return fail('assets_too_large', `${entries.length} asset files (limit ${lim.maxCount})`);
  }
  let root: string | null = null;
  const out: Record<string, Buffer> = {};
  let total = 0;
  for (const [name, value] of entries) {
    const bad = assetNameProblem(name);
    if (bad) return fail('asset_invalid', bad);
    let bytes: Buffer;
    if (typeof value === 'string') {
      bytes = Buffer.from(value, 'utf8');
    } else {
      if (!opts.dataRoot) {
        return fail(
          'asset_invalid',
          `asset "${name}" names a path (${value.path}) but no data root was given (--data-root)`,
        );
      }
      try {
        root ??= await realpath(opts.dataRoot);
      } catch {
        return fail('asset_missing', `the data root ${opts.dataRoot} does not exist`);
      }
      const asked = resolve(root, value.path);
      if (isAbsolute(value.path) || !inside(root, asked)) {
        return fail(
          'asset_outside_root',
          `asset "${name}": ${value.path} is outside the data root`,
        );
      }
      let real: string;
      try {
        real = await realpath(asked);
      } catch {
        return fail('asset_missing', `asset "${name}": no file ${value.path} under the data root`);
      }
      // A symlink inside the root may point anywhere: where it really leads must be inside.
      if (!inside(root, real)) {
        return fail(
          'asset_outside_root',
          `asset "${name}": ${value.path} leads out of the data root (symlink)`,
        );
      }
      const got = await readRegularFile(real, {
        maxBytes: lim.maxTotalBytes - total,
        ...(opts.readTimeoutMs !== undefined ? { timeoutMs: opts.readTimeoutMs } : {}),
      });
      if (!got.ok) {
        const why = `asset "${name}": ${value.path} ${got.message}`;
        if (got.problem === 'too_large') {
          return fail(
            'assets_too_large',
            `the task's assets are over ${lim.maxTotalBytes} bytes (${why})`,
          );
        }
        return fail(got.problem === 'missing' ? 'asset_missing' : 'asset_invalid', why);
      }
      bytes = got.bytes;
    }
    total += bytes.length;
    if (total > lim.maxTotalBytes) {
      return fail('assets_too_large', `the task's assets are over ${lim.maxTotalBytes} bytes`);
    }
    out[name] = bytes;
  }
  // A name cannot be both a file and the directory of another (`data` and `data/cars.json`).
  for (const n of Object.keys(out)) {
    if (Object.keys(out).some((m) => m.startsWith(`${n}/`))) {
      return fail('asset_invalid', `asset "${n}" is also the directory of another asset`);
    }
  }
  return { ok: true, assets: out };
}
