// `rubrica doctor` (issue 35, item 5): what isolation this machine really gives, per domain,
// measured rather than assumed. For each domain: are its tools there, does its sandbox start
// (a real bubblewrap run of the domain's own tool, the way a job runs), and which memory cap
// is in force — a per-sandbox cgroup (v2 or v1) or only per-process rlimits. A domain is
// `safe` when its tools run inside its isolation; with `requireCgroup` a per-process-only cap
// is not safe either. Nothing here throws: every failure is a line of the report.
import { existsSync } from 'node:fs';
import { DOMAIN_IDS, type DomainId } from '../core/domain-ids.ts';
import { readEnv } from '../core/env.ts';
import { memoryCgroupSupport } from './sandbox/memory-cgroup.ts';
import { runSandboxed } from './sandbox/run.ts';
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
}

export interface DoctorReport {
  memoryCap: MemoryCap;
  domains: DomainCheck[];
  /** Every checked domain is safe. */
  ok: boolean;
}

/** The shell line each bwrap domain's tool must pass inside the sandbox. */
const SANDBOX_PROBES: Partial<Record<DomainId, string>> = {
  python: "python3 -I -c 'import matplotlib, numpy, pandas'",
  latex: 'pdflatex --version >/dev/null && pdftoppm -v 2>/dev/null',
  dot: 'dot -V 2>/dev/null',
  lilypond: 'lilypond --version >/dev/null && gs --version >/dev/null',
  smiles: "python3 -I -c 'import rdkit'",
};

export function currentMemoryCap(): MemoryCap {
  const s = memoryCgroupSupport();
  return s ? (s.version === 2 ? 'cgroup v2' : 'cgroup v1') : 'per-process only';
}

async function probeSandbox(line: string): Promise<{ ok: boolean; ms: number; why: string }> {
  const r = await runSandboxed({ argv: ['/bin/sh', '-c', line] }, { timeoutMs: 30_000 });
  const why = r.spawnError ?? (r.timedOut ? 'timed out after 30 s' : r.stderr.trim().slice(-300));
  return { ok: r.code === 0, ms: Math.round(r.ms), why };
}

async function checkOne(domain: DomainId, cap: MemoryCap, requireCgroup: boolean) {
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
    return {
      domain,
      isolation: 'bwrap',
      tool: probe,
      toolOk: r.ok,
      sandboxOk: r.ok,
      memoryCap: cap,
      startMs: r.ms,
      safe: r.ok && capOk,
      notes,
    } satisfies DomainCheck;
  }
  if (domain === 'html' || domain === 'mermaid') {
    // Loaded here only: playwright-core is not needed to learn the memory cap (serve's start).
    const { DEFAULT_CHROMIUM } = await import('../browser/launch.ts');
    const chromium = readEnv('RUBRICA_CHROMIUM') ?? DEFAULT_CHROMIUM;
    const found = existsSync(chromium);
    if (!found) notes.push(`no Chromium at ${chromium} (RUBRICA_CHROMIUM)`);
    return {
      domain,
      isolation: 'browser',
      tool: chromium,
      toolOk: found,
      sandboxOk: null,
      memoryCap: null,
      startMs: null,
      safe: found,
      notes,
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
export async function runDoctor(
  opts: { domains?: readonly DomainId[]; requireCgroup?: boolean } = {},
): Promise<DoctorReport> {
  const cap = currentMemoryCap();
  const domains: DomainCheck[] = [];
  for (const d of opts.domains ?? DOMAIN_IDS) {
    domains.push(await checkOne(d, cap, opts.requireCgroup === true));
  }
  return { memoryCap: cap, domains, ok: domains.every((d) => d.safe) };
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
    d.safe ? 'yes' : 'NO',
  ]);
  const head = ['domain', 'isolation', 'tools', 'sandbox', 'memory cap', 'start', 'safe'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const notes = r.domains.flatMap((d) => d.notes.map((n) => `${d.domain}: ${n}`));
  return `${[line(head), ...rows.map(line), '', `memory cap on this machine: ${r.memoryCap}`, ...notes].join('\n')}\n`;
}
