// Finding LilyPond's compiled Scheme: the one installed version's ccache, never a guess.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lilypondCompiledScheme } from './compiled-scheme.ts';
import { lilypondEnv } from './renderer.ts';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** A fake /usr: data directories for `versions`, a ccache (with lily/lily.go) for `built`. */
function fakeUsr(versions: string[], built: Array<[triplet: string, version: string]>) {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-ly-'));
  const roots = { share: join(dir, 'share/lilypond'), lib: join(dir, 'lib') };
  for (const v of versions) mkdirSync(join(roots.share, v, 'scm'), { recursive: true });
  for (const [t, v] of built) {
    const cc = join(roots.lib, t, 'lilypond', v, 'ccache', 'lily');
    mkdirSync(cc, { recursive: true });
    writeFileSync(join(cc, 'lily.go'), '');
  }
  return roots;
}

describe('lilypondCompiledScheme', () => {
  it("finds the installed version's ccache under its multiarch directory", () => {
    const roots = fakeUsr(['2.24.1'], [['x86_64-linux-gnu', '2.24.1']]);
    expect(lilypondCompiledScheme(roots)).toBe(
      join(roots.lib, 'x86_64-linux-gnu/lilypond/2.24.1/ccache'),
    );
  });

  it('gives null when the version is ambiguous or its ccache is missing', () => {
    expect(lilypondCompiledScheme(fakeUsr(['2.24.1', '2.25.3'], [['a', '2.24.1']]))).toBeNull();
    expect(lilypondCompiledScheme(fakeUsr(['2.24.1'], [['a', '2.22.0']]))).toBeNull();
    expect(lilypondCompiledScheme(fakeUsr([], []))).toBeNull();
  });

  it('is what the sandbox gets on this machine (Debian lilypond is installed here)', () => {
    const found = lilypondCompiledScheme();
    expect(found).toMatch(/^\/usr\/lib\/.*lilypond\/\d+\.\d+\.\d+\/ccache$/);
    expect(lilypondEnv().GUILE_LOAD_COMPILED_PATH).toBe(found);
    expect(lilypondEnv(null)).not.toHaveProperty('GUILE_LOAD_COMPILED_PATH');
  });
});
