// `rubrica doctor` (issue 35, item 5): what isolation this machine really gives, per domain,
// measured rather than assumed. For each domain: are its tools there, does its sandbox start
// (a real bubblewrap run of the domain's own tool, the way a job runs), and which memory cap
// is in force — a per-sandbox cgroup (v2 or v1) or only per-process rlimits — with the tools'
// versions, the font families the renderers resolve, the SVG renderers, and the warm pools'
// measured start (doctor-probes.ts). A domain is `safe` when its tools run inside its
// isolation; with `requireCgroup` a per-process-only cap is not safe either. Nothing here
// throws: every failure is a line of the report.
import { existsSync } from 'node:fs';
import { DEFAULT_CHROMIUM } from '../browser/chromium-path.ts';
import { DOMAIN_IDS, type DomainId } from '../core/domain-ids.ts';
import { readEnv } from '../core/env.ts';
import {
  type FontReport,
  fontReport,
  type RendererReport,
  rendererReport,
  runTool,
  timeWarmPool,
  type WarmPoolTiming,
} from './doctor-probes.ts';
import { memoryCgroupStatus } from './sandbox/memory-cgroup.ts';
import { runSandboxed } from './sandbox/run.ts';
import type { DomainRenderer } from './types.ts';
import { checkVegaRuntime } from './vega-lite/check.ts';

/** Which memory cap a sandboxed job gets on this machine. */
export type MemoryCap = 'cgroup v2' | 'cgroup v1' | 'per-process only';

export interface DomainCheck {
  domain: DomainId;
  /** How the domain's code is isolated. */
  isolation: 'bwrap' | 'browser' | 'render workers' | 'child process';
  /** The tool run to prove the domain works, and whether it ran (inside its isolation). */
  tool: string;
  toolOk: boolean;
  /** For bwrap domains: the sandbox started and ran the tool; null where there is no sandbox. */
  sandboxOk: boolean | null;
  memoryCap: MemoryCap | null;
  /** Time for the check's run (a cold start of the sandbox and tool), in ms. */
  startMs: number | null;
  safe: boolean;
  /** Why it is not safe, or a note; empty when there is nothing to say. */
  notes: string[];
  /** The tools' versions as they answered inside the sandbox (or on the host for Chromium). */
  versions?: string[];
  /** The domain's warm pool, timed: its first job (start) and a second one (warm). */
  warmPool?: WarmPoolTiming | null;
}

export interface DoctorReport {
  memoryCap: MemoryCap;
  /** Where the cgroup is, or why there is none (RUBRICA_CGROUP_ROOT, delegation, …). */
  memoryCapReason: string;
  domains: DomainCheck[];
  /** The font families the renderers resolve (through the pinned fontconfig file). */
  fonts: FontReport;
  /** The SVG renderers and their versions. */
  renderers: RendererReport[];
  /** Every checked domain is safe. */
  ok: boolean;
}

/**
 * The shell line each bwrap domain's tool must pass inside the sandbox; what it prints is
 * the tools' versions (one per line). `&&` throughout: a missing tool fails the line.
 */
const SANDBOX_PROBES: Partial<Record<DomainId, string>> = {
  python:
    'python3 -I -c \'import sys, matplotlib, numpy, pandas; print("python", sys.version.split()[0]); print("matplotlib", matplotlib.__version__); print("numpy", numpy.__version__); print("pandas", pandas.__version__)\'',
  latex:
    'pdflatex --version > /tmp/v && head -n 1 /tmp/v && pdftoppm -v 2> /tmp/p && head -n 1 /tmp/p',
  dot: 'dot -V 2>&1',
  lilypond:
    'lilypond --version > /tmp/v && head -n 1 /tmp/v && gs --version > /tmp/g && echo "ghostscript $(cat /tmp/g)"',
  smiles: 'python3 -I -c \'import rdkit; print("rdkit", rdkit.__version__)\'',
};

/**
 * The warm pools timed (one process each) and the job each is timed on. The renderers are
 * loaded only when timed: serve imports this file for the memory cap at its start.
 */
const WARM_POOLS: Partial<Record<DomainId, { make: () => Promise<DomainRenderer>; code: string }>> =
  {
    python: {
      make: async () =>
        (await import('./python/renderer.ts')).createPythonRenderer({ poolSize: 1 }),
      code: 'import matplotlib.pyplot as plt\nplt.plot([0, 1], [0, 1])\n',
    },
    dot: {
      make: async () => (await import('./dot/renderer.ts')).createDotRenderer({ poolSize: 1 }),
      code: 'digraph { a -> b }\n',
    },
  };

export function currentMemoryCap(): MemoryCap {
  const s = memoryCgroupStatus().support;
  return s ? (s.version === 2 ? 'cgroup v2' : 'cgroup v1') : 'per-process only';
}

async function probeSandbox(
  line: string,
): Promise<{ ok: boolean; ms: number; why: string; versions: string[] }> {
  const r = await runSandboxed({ argv: ['/bin/sh', '-c', line] }, { timeoutMs: 30_000 });
  const why = r.spawnError ?? (r.timedOut ? 'timed out after 30 s' : r.stderr.trim().slice(-300));
  const versions = r.stdout.toString('utf8').trim().split('\n').filter(Boolean).slice(0, 8);
  return { ok: r.code === 0, ms: Math.round(r.ms), why, versions };
}

export interface DoctorOptions {
  domains?: readonly DomainId[];
  requireCgroup?: boolean;
  /** Time each warm pool's start (default true; it starts one pool process per domain). */
  warmPools?: boolean;
}

async function checkOne(domain: DomainId, cap: MemoryCap, o: DoctorOptions) {
  const requireCgroup = o.requireCgroup === true;
  const notes: string[] = [];
  const capNote = () => {
    if (cap !== 'per-process only') return true;
    notes.push('no per-sandbox memory cgroup: memory is bounded per process only');
    return !requireCgroup;
  };
  const probe = SANDBOX_PROBES[domain];
  if (probe) {
    const r = await probeSandbox(probe);
    if (!r.ok) notes.push(`the sandbox did not run ${probe}: ${r.why || 'no output'}`);
    const capOk = capNote();
    const pool = WARM_POOLS[domain];
    let warmPool: WarmPoolTiming | null | undefined;
    if (pool && o.warmPools !== false) {
      const t = r.ok ? await timeWarmPool(pool.make, pool.code) : { error: 'its tool did not run' };
      warmPool = 'error' in t ? null : t;
      if ('error' in t) notes.push(`the warm pool did not answer: ${t.error}`);
    }
    return {
      domain,
      isolation: 'bwrap',
      tool: probe,
      toolOk: r.ok,
      sandboxOk: r.ok,
      memoryCap: cap,
      startMs: r.ms,
      safe: r.ok && capOk && warmPool !== null,
      notes,
      versions: r.versions,
      ...(warmPool === undefined ? {} : { warmPool }),
    } satisfies DomainCheck;
  }
  if (domain === 'html' || domain === 'mermaid') {
    // Not launch.ts: that would load playwright-core (seconds of module evaluation) only to
    // learn a path.
    const chromium = readEnv('RUBRICA_CHROMIUM') ?? DEFAULT_CHROMIUM;
    const found = existsSync(chromium);
    if (!found) notes.push(`no Chromium at ${chromium} (RUBRICA_CHROMIUM)`);
    const v = found ? await runTool(chromium, ['--version']) : { out: null, why: '' };
    if (found && v.out === null) notes.push(`${chromium} --version failed: ${v.why}`);
    return {
      domain,
      isolation: 'browser',
      tool: chromium,
      toolOk: found && v.out !== null,
      sandboxOk: null,
      memoryCap: null,
      startMs: null,
      safe: found && v.out !== null,
      notes,
      versions: v.out ? [v.out] : [],
    } satisfies DomainCheck;
  }
  if (domain === 'vega-lite') {
    // The warm vega runtime in its bubblewrap sandbox (vega-lite/sandbox-spec.ts), started
    // for real and asked for one chart.
    const r = await checkVegaRuntime();
    if (!r.ok) notes.push(`the sandboxed vega runtime did not run: ${r.why || 'no output'}`);
    const capOk = capNote();
    return {
      domain,
      isolation: 'bwrap',
      tool: 'node + vega (warm runtime)',
      toolOk: r.ok,
      sandboxOk: r.ok,
      memoryCap: cap,
      startMs: r.ms,
      safe: r.ok && capOk,
      notes,
    } satisfies DomainCheck;
  }
  // svg: the sanitiser and resvg in rubrica's own render workers, no external tool.
  return {
    domain,
    isolation: 'render workers',
    tool: 'resvg (bundled)',
    toolOk: true,
    sandboxOk: null,
    memoryCap: null,
    startMs: null,
    safe: true,
    notes,
  } satisfies DomainCheck;
}

/** Checks the given domains (all by default), one after another (the sandboxes are real). */
export async function runDoctor(opts: DoctorOptions = {}): Promise<DoctorReport> {
  const cap = currentMemoryCap();
  const domains: DomainCheck[] = [];
  for (const d of opts.domains ?? DOMAIN_IDS) domains.push(await checkOne(d, cap, opts));
  const [fonts, renderers] = await Promise.all([fontReport(), rendererReport()]);
  return {
    memoryCap: cap,
    memoryCapReason: memoryCgroupStatus().reason,
    domains,
    fonts,
    renderers,
    ok: domains.every((d) => d.safe),
  };
}

/** The report as a table for a terminal. */
export function doctorTable(r: DoctorReport): string {
  const rows = r.domains.map((d) => [
    d.domain,
    d.isolation,
    d.toolOk ? 'yes' : 'NO',
    d.sandboxOk === null ? '-' : d.sandboxOk ? 'yes' : 'NO',
    d.memoryCap ?? '-',
    d.startMs === null ? '-' : `${d.startMs} ms`,
    d.warmPool
      ? `${d.warmPool.startMs} ms / ${d.warmPool.warmJobMs} ms`
      : d.warmPool === null
        ? 'NO'
        : '-',
    d.safe ? 'yes' : 'NO',
    (d.versions ?? []).join('; '),
  ]);
  const head = [
    'domain',
    'isolation',
    'tools',
    'sandbox',
    'memory cap',
    'start',
    'warm pool start / job',
    'safe',
    'versions',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const notes = r.domains.flatMap((d) => d.notes.map((n) => `${d.domain}: ${n}`));
  const fonts = r.fonts.error
    ? [`fonts: ${r.fonts.error}`]
    : Object.entries(r.fonts.resolves).map(
        ([q, family]) =>
          `  ${q} → ${family}${r.fonts.uncovered.includes(q) ? ' (which has no glyphs for it)' : ''}`,
      );
  const renderers = r.renderers.map(
    (x) =>
      `  ${x.name}: ${x.found ? (x.version ?? 'found') : 'NOT FOUND'}${x.note ? ` (${x.note})` : ''}`,
  );
  return `${[
    line(head),
    ...rows.map(line),
    '',
    `memory cap on this machine: ${r.memoryCap} (${r.memoryCapReason})`,
    `fonts (${r.fonts.files} files in ${r.fonts.dir}), as the renderers resolve them:`,
    ...fonts,
    'svg renderers:',
    ...renderers,
    ...notes,
  ].join('\n')}\n`;
}
