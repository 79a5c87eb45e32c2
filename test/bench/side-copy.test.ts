// What a side of `--against REF --blocks` runs from (bench/side-copy.ts): a fresh copy of its
// tree with the files git would give it — tracked, and new ones not yet added, but never what
// .gitignore hides — its node_modules linked to where they really are, and gone once removed.
// A real git repository in a temporary directory; no bench is run.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copySide } from '../../bench/side-copy.ts';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'side-copy-test-'));
  made.push(d);
  return d;
};

/** A checkout as a REF worktree looks: tracked files, a new file, an ignored build, linked modules. */
function checkout(): { dir: string; modules: string } {
  const dir = temp();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  mkdirSync(join(dir, 'src', 'render'), { recursive: true });
  writeFileSync(join(dir, 'src', 'render', 'worker.ts'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  writeFileSync(join(dir, '.gitignore'), 'dist/\nnode_modules/\n');
  git('add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'x');
  writeFileSync(join(dir, 'src', 'render', 'new-module.ts'), 'export const y = 2;\n');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'stale.js'), 'old build');
  const modules = temp();
  writeFileSync(join(modules, 'marker'), 'deps');
  // A symlink, as checkoutRef makes it: git lists it as an untracked file, not ignored.
  symlinkSync(modules, join(dir, 'node_modules'));
  return { dir, modules };
}

describe('copySide', () => {
  it('copies tracked and new files, not ignored ones, and links the real node_modules', () => {
    const { dir, modules } = checkout();
    const c = copySide({ name: 'candidate', dir, commit: 'abc' });
    try {
      expect(c.copied).toBe(true);
      expect(c.side.dir).not.toBe(dir);
      expect(c.side.commit).toBe('abc');
      expect(readFileSync(join(c.side.dir, 'src', 'render', 'worker.ts'), 'utf8')).toContain(
        'x = 1',
      );
      expect(existsSync(join(c.side.dir, 'src', 'render', 'new-module.ts'))).toBe(true);
      expect(existsSync(join(c.side.dir, 'dist'))).toBe(false);
      expect(realpathSync(join(c.side.dir, 'node_modules'))).toBe(realpathSync(modules));
      expect(statSync(join(c.side.dir, 'run.sh')).mode & 0o777).toBe(0o755);
      // Sandboxed renderers run as nobody and must reach the side's files.
      expect(statSync(c.side.dir).mode & 0o777).toBe(0o755);
    } finally {
      c.remove();
    }
    expect(existsSync(c.side.dir)).toBe(false);
    expect(existsSync(join(dir, 'src', 'render', 'worker.ts'))).toBe(true);
  });

  it('makes a new copy each time, so no stretch of rounds reuses another one', () => {
    const { dir } = checkout();
    const a = copySide({ name: 'ref', dir, commit: 'r' });
    const b = copySide({ name: 'ref', dir, commit: 'r' });
    expect(a.side.dir).not.toBe(b.side.dir);
    a.remove();
    b.remove();
  });

  it('runs a side that is not a git checkout where it is, and says so', () => {
    const dir = temp();
    const c = copySide({ name: 'candidate', dir, commit: 'working tree' });
    expect(c.copied).toBe(false);
    expect(c.side.dir).toBe(dir);
    c.remove();
    expect(existsSync(dir)).toBe(true);
  });
});
