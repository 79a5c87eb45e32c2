// The measured parts of `rubrica doctor` beside the sandbox starts (doctor.ts): which font
// families the renderers resolve, which SVG renderers are there and at which version, and
// how long a domain's warm pool takes to start and to answer a job once warm. Each is run,
// never assumed; a probe that cannot run says why in its result instead of throwing.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readEnv } from '../core/env.ts';
import { FONT_DIR, FONT_FILES, pinnedFontConfig } from '../core/fonts.ts';
import type { DomainRenderer } from './types.ts';

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Runs a tool with a deadline; its stdout (trimmed), or null with the reason. */
export function runTool(
  file: string,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<{ out: string | null; why: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      // The system's tools, as the sandboxes see them: a fixed PATH, nothing of ours.
      { timeout: timeoutMs, killSignal: 'SIGKILL', env: { PATH: SYSTEM_PATH, ...env } },
      (err, stdout) => {
        if (err) resolve({ out: null, why: err.message.split('\n')[0] ?? String(err) });
        else resolve({ out: String(stdout).trim(), why: '' });
      },
    );
  });
}

/** The generic families and script samples asked of fontconfig (what a picture may name). */
const FONT_QUERIES: readonly [string, string][] = [
  ['sans-serif', 'sans-serif'],
  ['serif', 'serif'],
  ['monospace', 'monospace'],
  ['an unknown family (Arial)', 'Arial'],
  ['Chinese', 'sans-serif:lang=zh-cn'],
  ['Japanese', 'sans-serif:lang=ja'],
  ['Korean', 'sans-serif:lang=ko'],
  ['Arabic', 'sans-serif:lang=ar'],
  ['Hebrew', 'sans-serif:lang=he'],
  ['Devanagari', 'sans-serif:lang=hi'],
  ['Thai', 'sans-serif:lang=th'],
  ['Cyrillic', 'sans-serif:lang=ru'],
];

export interface FontReport {
  /** The pinned font folder and how many of its expected files are there. */
  dir: string;
  files: number;
  /** What each query resolves to through the pinned fontconfig file (librsvg and Chromium). */
  resolves: Record<string, string>;
  /** The scripts whose resolved family does not cover the language (drawn as boxes). */
  uncovered: string[];
  /** Why fontconfig could not be asked (then `resolves` is empty). */
  error?: string;
}

/**
 * The families the renderers resolve, asked of fontconfig through the same pinned file the
 * render workers and Chromium read (core/fonts.ts): a fallback chain added there shows here
 * as the family a script resolves to.
 */
export async function fontReport(): Promise<FontReport> {
  const report: FontReport = {
    dir: FONT_DIR,
    files: FONT_FILES.length,
    resolves: {},
    uncovered: [],
  };
  let config: string;
  try {
    config = pinnedFontConfig();
  } catch (e) {
    return { ...report, error: `cannot write the pinned fontconfig file: ${String(e)}` };
  }
  const answers = await Promise.all(
    FONT_QUERIES.map(([, q]) =>
      runTool('fc-match', ['-f', '%{family[0]}|%{lang}', q], { FONTCONFIG_FILE: config }),
    ),
  );
  const failed = answers.find((a) => a.out === null);
  if (failed) return { ...report, error: `fc-match: ${failed.why}` };
  FONT_QUERIES.forEach(([name, q], i) => {
    const [family = '', ...langs] = answers[i]!.out!.split('|');
    report.resolves[name] = family;
    // fontconfig answers its best family even when that has no glyph of the script: the
    // family's own language list says whether it covers it.
    const lang = /:lang=(.+)$/.exec(q)?.[1];
    if (lang && !langs.includes(lang)) report.uncovered.push(name);
  });
  return report;
}

export interface RendererReport {
  name: 'librsvg' | 'resvg' | 'chromium';
  found: boolean;
  version: string | null;
  note?: string;
}

const req = createRequire(import.meta.url);
const packageVersion = (name: string): string | null => {
  try {
    return (req(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
};

/** The SVG renderers (`--renderer`): librsvg in sharp, resvg, and the Chromium binary. */
export async function rendererReport(): Promise<RendererReport[]> {
  let rsvg: string | null = null;
  try {
    rsvg = (req('sharp') as { versions: Record<string, string> }).versions.rsvg ?? null;
  } catch {
    rsvg = null;
  }
  const chromium = readEnv('RUBRICA_CHROMIUM') ?? '/usr/bin/chromium';
  const c = await runTool(chromium, ['--version']);
  return [
    { name: 'librsvg', found: rsvg !== null, version: rsvg, note: 'in sharp (render workers)' },
    {
      name: 'resvg',
      found: packageVersion('@resvg/resvg-js') !== null,
      version: packageVersion('@resvg/resvg-js'),
    },
    {
      name: 'chromium',
      found: c.out !== null,
      version: c.out,
      ...(c.out === null ? { note: `${chromium}: ${c.why}` } : {}),
    },
  ];
}

export interface WarmPoolTiming {
  /** First job on a fresh pool: starting the warm process plus the job, ms. */
  startMs: number;
  /** The same job again on the now-warm process, ms. */
  warmJobMs: number;
}

/**
 * Starts a one-process warm pool of a domain and times its first job (the start) and a
 * second one (warm). Null with the reason when a job fails: then the pool is not usable.
 */
export async function timeWarmPool(
  make: () => Promise<DomainRenderer>,
  code: string,
): Promise<WarmPoolTiming | { error: string }> {
  const r = await make();
  try {
    const t0 = performance.now();
    const first = await r.render(code, { timeoutMs: 60_000 });
    const t1 = performance.now();
    if (!first.ok) return { error: `${first.error.code}: ${first.error.message}` };
    const second = await r.render(code, { timeoutMs: 60_000 });
    const t2 = performance.now();
    if (!second.ok) return { error: `${second.error.code}: ${second.error.message}` };
    return { startMs: Math.round(t1 - t0), warmJobMs: Math.round(t2 - t1) };
  } finally {
    await r.close();
  }
}
