// Resolves a record's `assets` (src/core/assets.ts) into bytes: inline content as written,
// `{ path }` read from the data root. A path must stay inside the root after every symlink is
// followed (realpath), name a regular file, and the task's files must fit the limits; else the
// item gets a stable code (asset_invalid, asset_missing, asset_outside_root,
// assets_too_large) and is never rendered. Nothing here throws for bad input.
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
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

/** Where `{ path }` assets are read from, and the limits. */
export interface ResolveAssetsOptions {
  /** The data root (`--data-root`); without it only inline assets are accepted. */
  dataRoot?: string | null;
  limits?: Partial<AssetLimits>;
}

/** The assets as bytes, or the first problem with them. */
export type AssetsResolution =
  | { ok: true; assets: ResolvedAssets }
  | { ok: false; error: ErrorValue<AssetErrorCode> };

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Reads one regular file of at most `max` bytes (one more byte tells it is bigger). */
function readBounded(file: string, max: number): Buffer | 'not_file' | 'too_large' {
  const fd = openSync(file, 'r');
  try {
    if (!fstatSync(fd).isFile()) return 'not_file';
    const buf = Buffer.alloc(max + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > max) return 'too_large';
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Resolves a record's assets; absent or empty gives `{}`. */
export function resolveAssets(
  input: AssetsInput | null | undefined,
  opts: ResolveAssetsOptions = {},
): AssetsResolution {
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
        root ??= realpathSync(opts.dataRoot);
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
        real = realpathSync(asked);
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
      let got: ReturnType<typeof readBounded>;
      try {
        got = readBounded(real, lim.maxTotalBytes - total);
      } catch (e) {
        return fail(
          'asset_missing',
          `asset "${name}": cannot read ${value.path}: ${(e as Error).message}`,
        );
      }
      if (got === 'not_file') {
        return fail('asset_missing', `asset "${name}": ${value.path} is not a regular file`);
      }
      if (got === 'too_large') {
        return fail('assets_too_large', `the task's assets are over ${lim.maxTotalBytes} bytes`);
      }
      bytes = got;
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
