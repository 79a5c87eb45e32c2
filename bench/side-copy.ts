// A fresh copy of one side's tree for one stretch of a same-run comparison (compare-blocks.ts,
// `fresh` rounds). Why: A/A runs — the working tree against its own HEAD — read 1.033×
// [1.006, 1.061] and 1.029× from /work/main against a REF worktree in /tmp, and 0.996× from a
// worktree in /tmp against the same REF (2 cores, 7 Dec 2026, docs/rendering.md "Comparing
// against a commit"): the candidate ran from a long-lived checkout and REF from a tree
// written a minute before, and whatever that difference does to the speed (where the files
// sit, their paths, the caches keyed by them) was the same in every round, so no number of
// rounds could average it out. Each side now runs from a copy made the same way, in the same
// place, new every stretch: the only difference left between the sides is their code.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Side } from './compare-ref.ts';
import { onInterrupt } from './on-interrupt.ts';

/**
 * The files that make up a side: tracked, plus untracked ones not ignored (a new module of the
 * candidate not yet added). null when the directory is not a git checkout.
 */
function sideFiles(dir: string): string[] | null {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 << 20,
    });
    // node_modules is a symlink in a REF worktree: git sees it as an untracked file.
    return out.split('\0').filter((f) => f && f !== 'node_modules');
  } catch {
    return null;
  }
}

/**
 * Copies `side`'s tree into a new temporary directory (node_modules linked, not copied) and
 * returns the side as it runs from there, with the function that removes the copy. A side
 * that is not a git checkout runs where it is (nothing to list), and says so in `copied`.
 */
export function copySide(side: Side): { side: Side; copied: boolean; remove: () => void } {
  const files = sideFiles(side.dir);
  if (!files) return { side, copied: false, remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-side-'));
  const forget = onInterrupt(() => rmSync(dir, { recursive: true, force: true }));
  // mkdtemp makes it 0700; sandboxed renderers run as nobody and read the side's own files
  // (as checkoutRef's worktree, compare-ref.ts).
  chmodSync(dir, 0o755);
  try {
    const made = new Set<string>();
    for (const f of files) {
      const from = join(side.dir, f);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(from);
      } catch {
        continue; // deleted in the working tree but still tracked: the side runs without it
      }
      if (!st.isFile()) continue;
      const to = join(dir, f);
      const parent = dirname(to);
      if (!made.has(parent)) {
        mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      copyFileSync(from, to); // libuv's copy keeps the file's mode
    }
    // The same dependencies the side had: its node_modules resolved to where they really are.
    const modules = join(side.dir, 'node_modules');
    let target: string | null = null;
    try {
      target = realpathSync(modules);
    } catch {
      try {
        target = readlinkSync(modules);
      } catch {
        target = null;
      }
    }
    if (target) symlinkSync(target, join(dir, 'node_modules'));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    forget();
    throw e;
  }
  return {
    side: { ...side, dir },
    copied: true,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      forget();
    },
  };
}
