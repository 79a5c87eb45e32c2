// A one-shot job's task data (src/core/assets.ts) as files in its working directory: written
// to a private host directory, then each bound read-only (a bind mount: not writable, not
// removable, even by the job's own user) at /work/<name> by bwrap. Only the names the task
// gave exist there; the host directory is removed when the job ends. Names are already
// checked (assetNameProblem: plain relative segments), so a path cannot leave the directory.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ResolvedAssets } from '../../core/assets.ts';

export interface StagedJobFiles {
  /** bwrap read-only binds, host file → /work/<name>. */
  binds: { host: string; path: string }[];
  remove(): void;
}

/** Stages `assets` for one job; null when there are none. */
export function stageJobFiles(assets: ResolvedAssets | undefined): StagedJobFiles | null {
  const names = Object.keys(assets ?? {});
  if (names.length === 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-job-files-'));
  try {
    // The sandbox runs as nobody when rubrica runs as root: the files must be world-readable.
    chmodSync(dir, 0o755);
    const binds = names.map((name) => {
      const host = join(dir, name);
      mkdirSync(dirname(host), { recursive: true, mode: 0o755 });
      writeFileSync(host, assets![name]!, { mode: 0o444 });
      return { host, path: `/work/${name}` };
    });
    return { binds, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
