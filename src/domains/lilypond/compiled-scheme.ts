// Where LilyPond's byte-compiled Scheme (.go) is, so Guile loads it instead of interpreting
// LilyPond's .scm sources at every start (issue 23). Debian's lilypond 2.24 ships the .go
// files in /usr/lib/<triplet>/lilypond/<version>/ccache, but the binary looks for them under
// its compile-time libdir, the unexpanded "${prefix}/lib/<triplet>/lilypond/<version>" (its
// `--loglevel=DEBUG` relocation log says so): it never finds them, and every run interprets
// ≈ 60 Scheme files — measured 2.2 of the 3.2 CPU-s a small score cost. GUILE_LOAD_COMPILED_PATH
// points Guile at them; Guile still loads a source whose .go is older than it, so a stale
// cache cannot change what runs. The sandbox binds /usr read-only at the same path.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface CompiledSchemeRoots {
  /** LilyPond's data directories, one per installed version (default /usr/share/lilypond). */
  share: string;
  /** The multiarch library root (default /usr/lib). */
  lib: string;
}

const DEFAULT_ROOTS: CompiledSchemeRoots = { share: '/usr/share/lilypond', lib: '/usr/lib' };

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The ccache directory of the one installed LilyPond version, or null when there is none or
 * the version is ambiguous (then LilyPond runs as before, interpreting its sources).
 */
export function lilypondCompiledScheme(roots: CompiledSchemeRoots = DEFAULT_ROOTS): string | null {
  const versions = entries(roots.share).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  if (versions.length !== 1) return null;
  const found = ['', ...entries(roots.lib)]
    .map((triplet) => join(roots.lib, triplet, 'lilypond', versions[0]!, 'ccache'))
    .filter((dir) => existsSync(join(dir, 'lily.go')) || existsSync(join(dir, 'lily', 'lily.go')));
  return found.length === 1 ? found[0]! : null;
}
