// The bubblewrap sandbox the vega runtime runs in (issue 35 item 2): the same launcher as every
// other domain (bwrap.ts: no network, empty environment, read-only system, private tmpfs,
// rlimits; the runner adds the memory cgroup). What node needs beyond /usr is bound read-only
// under /rubrica: the worker script and exactly the packages it loads — vega, vega-lite,
// vega-interpreter, d3-dsv and their dependencies, found the way Node finds them — each at
// /rubrica + the path Node looks it up by on the host, so Node resolves the same tree inside.
// Nothing else of the project, its other node_modules or the host is visible.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxSpec } from '../sandbox/bwrap.ts';

/** Where the host files the runtime needs appear inside the sandbox. */
export const SANDBOX_PREFIX = '/rubrica';

/** The packages worker.mjs imports (their dependencies follow from their package.json). */
const ROOTS = ['vega', 'vega-lite', 'vega-interpreter', 'd3-dsv'] as const;

export const WORKER_FILE = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** The path a host file has inside the sandbox. */
export function insidePath(host: string): string {
  return SANDBOX_PREFIX + host;
}

/** The package directory Node finds for `name` from `from` (walking up node_modules), or null. */
function lookUp(from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const p = join(dir, 'node_modules', name);
      if (existsSync(join(p, 'package.json'))) return p;
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The directories of every package the worker loads, as Node looks them up (not resolved
 * through symlinks: inside the sandbox each is a plain mount at that path). A missing
 * optional or peer dependency is skipped, as Node would only fail if it were loaded.
 */
export function packageClosure(fromDir: string): string[] {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const deps = { ...pj.dependencies, ...pj.optionalDependencies, ...pj.peerDependencies };
    for (const name of Object.keys(deps)) {
      const found = lookUp(dir, name);
      if (found) visit(found);
    }
  };
  for (const root of ROOTS) {
    const found = lookUp(fromDir, root);
    if (!found) throw new Error(`the vega runtime needs the package ${root}, not found`);
    visit(found);
  }
  return [...seen].sort();
}

let cachedBinds: Array<{ host: string; path: string }> | null = null;

/**
 * Read-only binds: the worker file and each package directory not already inside another
 * bound package (a nested node_modules comes with its parent's mount).
 */
export function runtimeBinds(): Array<{ host: string; path: string }> {
  if (cachedBinds) return cachedBinds;
  const dirs = packageClosure(dirname(WORKER_FILE));
  const outer = dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(o + sep)));
  const binds = outer.map((d) => ({ host: realpathSync(d), path: insidePath(d) }));
  binds.push({ host: realpathSync(WORKER_FILE), path: insidePath(WORKER_FILE) });
  // Node installed outside /usr (nvm, /usr/local, /opt): its binary alone, read-only.
  if (!process.execPath.startsWith('/usr/')) {
    binds.push({ host: realpathSync(process.execPath), path: `${SANDBOX_PREFIX}/bin/node` });
  }
  cachedBinds = binds;
  return binds;
}

export interface VegaSandboxOptions {
  /** V8 old-space limit, MB: the first memory bound (abort → `too_large`, "more than N MB"). */
  heapMb: number;
  /** The whole sandbox's memory cgroup cap, bytes (default: 1 GiB, or heap + 512 MiB if more). */
  sandboxMemoryBytes?: number;
}

/** The sandbox spec of one vega runtime process (run by a LineWorker, line-worker.ts). */
export function vegaSandboxSpec(o: VegaSandboxOptions): SandboxSpec {
  const node = process.execPath.startsWith('/usr/')
    ? process.execPath
    : `${SANDBOX_PREFIX}/bin/node`;
  const heapBytes = o.heapMb * 1024 ** 2;
  const limits: Partial<SandboxLimits> = {
    // A warm process lives for many jobs: each job's time is the runner's wall-clock limit.
    cpuSeconds: 3600,
    // V8 reserves address space well beyond its heap; the heap flag and the cgroup bound use.
    memoryBytes: Math.max(DEFAULT_SANDBOX_LIMITS.memoryBytes, 4 * heapBytes),
    sandboxMemoryBytes:
      o.sandboxMemoryBytes ??
      Math.max(DEFAULT_SANDBOX_LIMITS.sandboxMemoryBytes, heapBytes + 512 * 1024 ** 2),
  };
  return {
    argv: [
      node,
      `--max-old-space-size=${o.heapMb}`,
      '--max-semi-space-size=16',
      // Expressions are interpreted (worker.mjs); V8 refusing eval/Function enforces that.
      '--disallow-code-generation-from-strings',
      insidePath(WORKER_FILE),
    ],
    roBinds: runtimeBinds(),
    limits,
  };
}
