// Task data (issue 23): chart and plotting tasks come with files — PrismaCoder's chart-to-code,
// VisPlotBench and MatPlotAgent tasks read a CSV or a JSON file. A prompt or rollout carries
// them as `assets`: name → the file's content inline (a string), or `{ path }` naming a file
// under the data root given on the command line (`--data-root DIR`). The renderers make each
// name readable by the job that drew the rollout and by nothing else (docs/domains.md).
// This file holds the shape, the naming rule, the limits and the content hash; reading files
// from the data root is src/domains/assets.ts.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** One asset: its content inline, or a path under the data root. */
export const AssetValueSchema = z.union([
  z.string(),
  z.object({ path: z.string().min(1) }).strict(),
]);

/** A record's `assets`: file name (as the code opens it) → inline content or `{ path }`. */
export const AssetsInputSchema = z.record(z.string(), AssetValueSchema);
/** The `assets` field as written in prompt and rollout files. */
export type AssetsInput = z.infer<typeof AssetsInputSchema>;

/** Resolved assets: name → bytes, ready for a sandbox. */
export type ResolvedAssets = Readonly<Record<string, Buffer>>;

/** The per-item codes of assets that cannot be given to a job (never the policy's fault). */
export type AssetErrorCode =
  | 'asset_invalid' // a bad name, a path with no data root, or a path that is no regular file
  //                  (FIFO, socket, device, directory), changes while read or is too slow to read
  | 'asset_missing' // the path names nothing under the data root, or it cannot be opened
  | 'asset_outside_root' // the path (or a symlink on it) leads out of the data root
  | 'assets_too_large'; // more files or bytes than the limits allow

/** How many asset files and bytes one task may carry. */
export interface AssetLimits {
  /** Files per task (default 32). */
  maxCount: number;
  /** Bytes of all a task's files together (default 16 MiB). */
  maxTotalBytes: number;
}

/** The default asset limits: 32 files and 16 MiB per task. */
export const DEFAULT_ASSET_LIMITS: AssetLimits = Object.freeze({
  maxCount: 32,
  maxTotalBytes: 16 * 1024 ** 2,
});

// A name is what the code opens: `cars.csv`, `data/cars.json`. Plain segments only — no
// absolute path, no `.`/`..`, no backslash, no leading dot (no hidden files) — so a name
// can never point outside the job's directory.
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;
const MAX_SEGMENTS = 4;

/** Why `name` cannot be an asset's name, or null when it can. */
export function assetNameProblem(name: string): string | null {
  const segs = name.split('/');
  if (segs.length > MAX_SEGMENTS) return `asset name "${name}" has more than ${MAX_SEGMENTS} parts`;
  for (const s of segs) {
    if (!SEGMENT.test(s) || s === '.' || s === '..') {
      return `asset name "${name.slice(0, 120)}" is not a plain relative file name (letters, digits, . _ -, up to ${MAX_SEGMENTS} parts joined by /)`;
    }
  }
  return null;
}

/**
 * The assets' content hash: the same names and bytes give the same hash, in any order. Cache
 * keys of judged answers include it, so two tasks with different data never share an answer.
 */
export function assetsHash(assets: ResolvedAssets | undefined | null): string | null {
  const names = Object.keys(assets ?? {}).sort();
  if (names.length === 0) return null;
  const h = createHash('sha256');
  for (const n of names) {
    const bytes = assets![n]!;
    h.update(`${n}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex');
}
