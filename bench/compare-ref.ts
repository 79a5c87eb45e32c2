// `--against REF` for the benches: REF checked out in a temporary git worktree, rounds that
// alternate candidate and REF with each round's baseline run between them, and one line per
// row: candidate/REF with a 95 % interval over the rounds, for CPU of every process involved
// and for wall time. The statistics live in compare-stats.ts; this file holds the processes.
//
// Both sides run the candidate's bench harness (the same corpus, the same clocks, the same
// accounting); only the code under test differs: the harness imports `src/` from the side's
// directory (`--src DIR`). So a change to the bench itself never shows up as a speed change.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type BaselineRun,
  baselineProblem,
  formatInterval,
  median,
  ratioInterval,
  roundOrder,
} from './compare-stats.ts';
import { onInterrupt } from './on-interrupt.ts';

/** The checked-out tree a side's code comes from. */
export interface Side {
  name: 'candidate' | 'ref';
  dir: string;
  commit: string;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * REF in a temporary worktree. Its node_modules: a symlink to the candidate's when the two
 * package-lock.json are byte-identical (the common case, and no network), else `npm ci` in
 * the worktree (REF's own dependencies: a dependency bump is part of what is compared).
 */
export function checkoutRef(
  ref: string,
  candidateDir = process.cwd(),
): {
  candidate: Side;
  ref: Side;
  cleanup: () => void;
} {
  const commit = git(candidateDir, 'rev-parse', '--verify', `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-against-'));
  // mkdtemp makes it 0700; the sandboxes run as nobody and bind REF's own files (python's
  // harness, RDKit's draw.py, LilyPond's zygote.scm), which they could not then reach: REF's
  // python and smiles pools drew 0 files and its LilyPond zygote never started.
  chmodSync(dir, 0o755);
  git(candidateDir, 'worktree', 'add', '--detach', dir, commit);
  let forget = () => {};
  const cleanup = () => {
    forget();
    try {
      git(candidateDir, 'worktree', 'remove', '--force', dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
      git(candidateDir, 'worktree', 'prune');
    }
  };
  forget = onInterrupt(cleanup);
  try {
    const lock = (d: string) => {
      const f = join(d, 'package-lock.json');
      return existsSync(f) ? readFileSync(f) : Buffer.alloc(0);
    };
    if (lock(candidateDir).equals(lock(dir))) {
      symlinkSync(realpathSync(join(candidateDir, 'node_modules')), join(dir, 'node_modules'));
    } else {
      process.stderr.write(`--against ${ref}: package-lock.json differs, npm ci in ${dir}…\n`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    }
  } catch (e) {
    cleanup();
    throw e;
  }
  let head = 'working tree';
  try {
    head = git(candidateDir, 'rev-parse', '--short', 'HEAD');
    if (git(candidateDir, 'status', '--porcelain', '--untracked-files=no')) head += '+changes';
  } catch {
    // not a git checkout: the label stays "working tree"
  }
  return {
    candidate: { name: 'candidate', dir: resolve(candidateDir), commit: head },
    ref: { name: 'ref', dir, commit: commit.slice(0, 7) },
    cleanup,
  };
}

/** What one side reports for one row of one round. */
export interface Measure {
  files: number;
  /** CPU seconds of every process involved (parent, workers, their children). */
  cpuS: number;
  wallS: number;
}

/** A row of the comparison: one configuration (e.g. "whole path, 2 workers"). */
export interface CompareRow {
  label: string;
  run: (side: Side) => Promise<Measure>;
  /** The baseline this row divides by (CairoSVG, a fresh process), run between the sides. */
  baseline?: () => Promise<Measure & BaselineRun>;
}

interface Collected {
  cpu: { candidate: number[]; ref: number[] };
  wall: { candidate: number[]; ref: number[] };
  perCoreVsBaseline: { candidate: number[]; ref: number[] };
  baselineFailures: string[];
}

/**
 * Runs `rounds` rounds; in each, for each row: first side, baseline, second side (the order of
 * the sides alternating round by round). Prints candidate/REF per row. Returns the baselines'
 * failures (empty when every baseline drew every file), for the caller's exit code.
 */
export async function compareRounds(
  rows: CompareRow[],
  sides: { candidate: Side; ref: Side },
  rounds: number,
): Promise<{ baselines: BaselineRun[] }> {
  const data = new Map<string, Collected>();
  const baselines: BaselineRun[] = [];
  for (const row of rows) {
    data.set(row.label, {
      cpu: { candidate: [], ref: [] },
      wall: { candidate: [], ref: [] },
      perCoreVsBaseline: { candidate: [], ref: [] },
      baselineFailures: [],
    });
  }
  console.log(
    `candidate ${sides.candidate.commit} (${sides.candidate.dir}) against REF ${sides.ref.commit} (${sides.ref.dir}), ${rounds} rounds`,
  );
  for (let round = 1; round <= rounds; round++) {
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`round ${round} of ${rounds} (load average ${load})`);
    for (const row of rows) {
      const d = data.get(row.label)!;
      const [first, second] = roundOrder(round);
      const got: Partial<Record<'candidate' | 'ref', Measure>> = {};
      got[first] = await row.run(sides[first]);
      let base: (Measure & BaselineRun) | undefined;
      if (row.baseline) {
        base = await row.baseline().catch((e: unknown) => ({
          files: 0,
          ok: 0,
          cpuS: 0,
          wallS: 0,
          error: e instanceof Error ? e.message.split('\n')[0]! : String(e),
        }));
        baselines.push(base);
      }
      got[second] = await row.run(sides[second]);
      const problem = base ? baselineProblem(base) : null;
      if (problem) d.baselineFailures.push(`round ${round}: ${problem}`);
      const parts: string[] = [];
      for (const s of ['candidate', 'ref'] as const) {
        const m = got[s]!;
        d.cpu[s].push(m.cpuS / m.files);
        d.wall[s].push(m.wallS / m.files);
        let vs = '';
        if (base && !problem) {
          const perCore = base.cpuS / base.files / (m.cpuS / m.files);
          d.perCoreVsBaseline[s].push(perCore);
          vs = `, ${perCore.toFixed(2)}× baseline per core`;
        }
        parts.push(
          `${s} ${((1000 * m.cpuS) / m.files).toFixed(2)} CPU-ms/file ${((1000 * m.wallS) / m.files).toFixed(2)} wall-ms/file${vs}`,
        );
      }
      const b = base
        ? problem
          ? `; baseline absent: ${problem}`
          : `; baseline ${((1000 * base.cpuS) / base.files).toFixed(2)} CPU-ms/file`
        : '';
      console.log(`  ${row.label}: ${parts.join('; ')}${b}`);
    }
    // The interval so far after every round: how many rounds a change of a given size needs
    // to be seen on this machine (and when one can stop).
    if (round >= 2)
      for (const row of rows) {
        const d = data.get(row.label)!;
        const iv = ratioInterval(d.cpu.candidate, d.cpu.ref);
        console.log(`  so far, ${row.label}, CPU: ${formatInterval(iv)}`);
      }
  }
  console.log(`\ncandidate/REF cost per file (< 1: candidate faster), 95 % interval over rounds:`);
  for (const row of rows) {
    const d = data.get(row.label)!;
    console.log(`${row.label}`);
    console.log(
      `  CPU (all processes): ${formatInterval(ratioInterval(d.cpu.candidate, d.cpu.ref))}`,
    );
    console.log(
      `  wall:                ${formatInterval(ratioInterval(d.wall.candidate, d.wall.ref))}`,
    );
    if (d.baselineFailures.length) {
      console.log(`  baseline failed, no ratio to it: ${d.baselineFailures.join('; ')}`);
    } else if (row.baseline) {
      const c = d.perCoreVsBaseline.candidate;
      const r = d.perCoreVsBaseline.ref;
      console.log(
        `  per core against the baseline, median of rounds: candidate ${median(c).toFixed(2)}×, REF ${median(r).toFixed(2)}×`,
      );
    }
  }
  return { baselines };
}

/** Runs a child process to completion (killed after timeoutMs) and parses its stdout as JSON. */
export function runJsonChild<T>(args: string[], cwd: string, timeoutMs: number): Promise<T> {
  return new Promise((resolveRun, reject) => {
    const p = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code ?? signal}`));
      // The whole output is one JSON document (possibly pretty-printed), or its last line is.
      try {
        resolveRun(JSON.parse(out) as T);
      } catch {
        try {
          resolveRun(JSON.parse(out.trim().split('\n').at(-1)!) as T);
        } catch (e) {
          reject(e);
        }
      }
    });
  });
}
