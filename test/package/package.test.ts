// rubrica as a user installs it: `npm pack` (which builds dist/ through `prepare`), the
// tarball installed with `--omit=dev` into a fresh temporary project, then the installed
// CLI run, the library imported from plain Node ESM, a strict TypeScript consumer compiled,
// and what each entry point loads measured in a real child process. No TypeScript loader is
// installed in the consumer: whatever runs here runs as compiled JavaScript. The npm registry
// is used through the local cache first (`--prefer-offline`).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const RECORD = join(import.meta.dirname, 'support/record-imports.mjs');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const run = promisify(execFile);

/**
 * The environment of a user's shell: none of the test runner's or npm's own variables (a
 * parent `npm test` exports npm_config_*), no RUBRICA_* settings, and no
 * ONNXRUNTIME_NODE_INSTALL: a plain install must not need it.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|RUBRICA_|ONNXRUNTIME_NODE_INSTALL)/i.test(k) || k === 'NODE_OPTIONS')
      continue;
    env[k] = v;
  }
  return env;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function sh(cmd: string, args: string[], cwd: string, timeout = 120_000): Promise<Result> {
  try {
    const r = await run(cmd, args, { cwd, env: userEnv(), timeout, maxBuffer: 64 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: `${e.stderr ?? ''}${typeof e.code === 'string' ? ` [${e.code}]` : ''}`,
    };
  }
}

async function ok(cmd: string, args: string[], cwd: string, timeout?: number): Promise<Result> {
  const r = await sh(cmd, args, cwd, timeout);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return r;
}

/** Module URLs and native libraries a `node --import record-imports.mjs …` child loaded. */
function loaded(stderr: string): { modules: string[]; natives: string[] } {
  const lines = stderr.split('\n');
  const pick = (tag: string) =>
    lines.filter((l) => l.startsWith(`${tag} `)).map((l) => l.slice(tag.length + 1));
  return { modules: pick('rubrica-import'), natives: pick('rubrica-native') };
}

/** npm package names among module URLs (node_modules/<name> or node_modules/@scope/<name>). */
function packagesOf(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const u of urls) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
    if (m && m[1] !== 'rubrica') names.add(m[1]!);
  }
  return names;
}

const HEAVY = [
  'sharp',
  'better-sqlite3',
  'tokenizers',
  'onnxruntime-node',
  '@huggingface/transformers',
  'hono',
  '@hono/node-server',
  '@hono/zod-openapi',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@ai-sdk/openai-compatible',
  'prom-client',
  'vega',
  'vega-lite',
];

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="24" fill="#d22"/></svg>';

let work: string;
let app: string;
let tarball: string;
let files: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rubrica-package-'));
  // `npm pack` runs `prepare`, i.e. the build: the tarball holds a fresh dist/.
  const packed = await ok('npm', ['pack', '--json', '--pack-destination', work], ROOT, 600_000);
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(work, info[0]!.filename);
  files = info[0]!.files.map((f) => f.path);

  app = join(work, 'app');
  await ok('mkdir', ['-p', app], work);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'rubrica-consumer', private: true, type: 'module' }),
  );
  await ok(
    'npm',
    ['install', tarball, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'],
    app,
    900_000,
  );
}, 1_200_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('ships the build, the binary and the prompts, and no tests, benches or sources', () => {
    for (const f of [
      'bin/rubrica.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/reward/index.js',
      'dist/render/worker.js',
      'prompts/judge/joint.md',
      'prompts/dwt/system.md',
      'package.json',
      'README.md',
    ]) {
      expect(files, f).toContain(f);
    }
    const unwanted = files.filter((f) =>
      /^(src|test|bench|\.ci|scripts|examples|integrations)\/|\.test\.|tsconfig/.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  it('installs without the optional CLIP stack and without any development tool', async () => {
    const nm = join(app, 'node_modules');
    for (const absent of [
      '@huggingface/transformers',
      'onnxruntime-node',
      'tsx',
      'vitest',
      'typescript',
    ]) {
      expect(existsSync(join(nm, absent)), absent).toBe(false);
    }
    for (const present of ['sharp', 'better-sqlite3', 'commander', 'zod']) {
      expect(existsSync(join(nm, present)), present).toBe(true);
    }
  });
});

describe('the installed CLI', () => {
  it('answers --version with the package version', async () => {
    const r = await ok('npx', ['--no-install', 'rubrica', '--version'], app);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it('lists every command in --help', async () => {
    const r = await ok('npx', ['--no-install', 'rubrica', '--help'], app);
    for (const cmd of ['render', 'inspect', 'score', 'serve', 'eval', 'rubric', 'export']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    }
  });

  it('renders an SVG to a PNG in its (compiled) workers', async () => {
    await writeFile(join(app, 'dot.svg'), SVG);
    const r = await ok(
      'npx',
      ['--no-install', 'rubrica', 'render', 'dot.svg', '--out', 'dot.png', '--json'],
      app,
    );
    const line = JSON.parse(r.stdout.trim()) as { ok: boolean; width: number };
    expect(line.ok).toBe(true);
    expect(line.width).toBe(512);
    expect(readFileSync(join(app, 'dot.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('inspects a completion: artifact, tokens, render and checks', async () => {
    await writeFile(join(app, 'completion.txt'), `Here it is:\n\`\`\`svg\n${SVG}\n\`\`\`\n`);
    const r = await ok(
      'npx',
      ['--no-install', 'rubrica', 'inspect', 'completion.txt', '--prompt', 'a red ball', '--json'],
      app,
    );
    const out = JSON.parse(r.stdout) as {
      artifact: { found: boolean; tokens: { svg: number } };
      render: { ok: boolean };
      checks: Record<string, unknown>;
    };
    expect(out.artifact.found).toBe(true);
    expect(out.artifact.tokens.svg).toBeGreaterThan(10);
    expect(out.render.ok).toBe(true);
    expect(Object.keys(out.checks)).toContain('blank');
  });

  it('answers --version without loading commander or any command module', async () => {
    const bin = join(app, 'node_modules/rubrica/bin/rubrica.js');
    const r = await ok('node', ['--import', RECORD, bin, '--version'], app);
    const { modules } = loaded(r.stderr);
    expect(modules.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(packagesOf(modules)).toEqual(new Set());
    expect(
      modules.filter((u) => u.includes('/dist/cli/commands/') && !u.endsWith('/index.js')),
    ).toEqual([]);
  });

  it('loads only the invoked command: inspect pulls no model client, server or charts', async () => {
    const bin = join(app, 'node_modules/rubrica/bin/rubrica.js');
    const r = await ok(
      'node',
      ['--import', RECORD, bin, 'inspect', 'completion.txt', '--json'],
      app,
    );
    const { modules } = loaded(r.stderr);
    const commands = modules
      .filter((u) => u.includes('/dist/cli/commands/'))
      .map((u) => u.slice(u.lastIndexOf('/') + 1));
    expect(commands.sort()).toEqual(['index.js', 'inspect.js']);
    const pkgs = packagesOf(modules);
    for (const heavy of ['ai', '@ai-sdk/openai', 'hono', 'prom-client', 'vega', 'better-sqlite3']) {
      expect(pkgs.has(heavy), heavy).toBe(false);
    }
  });

  it('names the package to install when CLIP scoring is asked for without it', async () => {
    await writeFile(
      join(app, 'clip.mjs'),
      `import { loadClipModel } from 'rubrica';
       try { await loadClipModel({ model: './no-model' }); console.log('loaded'); }
       catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`,
    );
    const r = await ok('node', ['clip.mjs'], app);
    const e = JSON.parse(r.stdout) as { name: string; code: string; message: string };
    expect(e.name).toBe('MissingDependencyError');
    expect(e.code).toBe('missing_dependency');
    expect(e.message).toContain('npm install @huggingface/transformers');
  });

  it('says what to install when the CLI is asked for CLIP without it (exit 1, no stack)', async () => {
    await writeFile(join(app, 'rollouts.jsonl'), '');
    const r = await sh(
      'npx',
      [
        '--no-install',
        'rubrica',
        'score',
        '--reward',
        'hybrid',
        '--clip-model',
        './no-model',
        '--in',
        'rollouts.jsonl',
        '--out',
        'scores.jsonl',
      ],
      app,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('npm install @huggingface/transformers');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('the installed library', () => {
  it('imports from plain Node ESM and inspects a completion with compiled render workers', async () => {
    await writeFile(
      join(app, 'use.mjs'),
      `import { VERSION, createRenderPool, inspectCompletion } from 'rubrica';
       import { weightedReward } from 'rubrica/reward';
       import { sanitizeSvg } from 'rubrica/render';
       import { createServer } from 'rubrica/server';
       const pool = createRenderPool({ workers: 1 });
       try {
         const ins = await inspectCompletion(${JSON.stringify(`\`\`\`svg\n${SVG}\n\`\`\``)}, { renderer: pool, prompt: 'a red ball' });
         console.log(JSON.stringify({
           version: VERSION, found: ins.artifact.found, rendered: ins.render?.ok,
           kinds: [typeof weightedReward, typeof sanitizeSvg, typeof createServer],
         }));
       } finally { await pool.close(); }`,
    );
    const r = await ok('node', ['use.mjs'], app);
    expect(JSON.parse(r.stdout)).toEqual({
      version: VERSION,
      found: true,
      rendered: true,
      kinds: ['function', 'function', 'function'],
    });
  });

  it('rubrica/reward loads no native module and none of the heavy packages', async () => {
    await writeFile(
      join(app, 'reward.mjs'),
      `import * as reward from 'rubrica/reward';
       console.log(Object.keys(reward).length);`,
    );
    const r = await ok('node', ['--import', RECORD, 'reward.mjs'], app);
    expect(Number(r.stdout.trim())).toBeGreaterThan(0);
    const { modules, natives } = loaded(r.stderr);
    expect(modules.some((u) => u.includes('/node_modules/rubrica/dist/reward/'))).toBe(true);
    expect(natives).toEqual([]);
    const pkgs = packagesOf(modules);
    expect(HEAVY.filter((h) => pkgs.has(h))).toEqual([]);
  });

  it('the same probe does see native modules where they are loaded (rubrica/render → sharp)', async () => {
    await writeFile(join(app, 'render.mjs'), `import 'rubrica/render';`);
    const r = await ok('node', ['--import', RECORD, 'render.mjs'], app);
    const { modules, natives } = loaded(r.stderr);
    expect(natives.some((n) => /sharp/.test(n))).toBe(true);
    expect(packagesOf(modules).has('sharp')).toBe(true);
  });

  it('compiles a strict TypeScript consumer, and the compiler does check it', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    const good = `import { createRenderPool, inspectCompletion, type Inspection, RubricaError } from 'rubrica';
import { weightedReward } from 'rubrica/reward';
import { type RenderResult, sanitizeSvg } from 'rubrica/render';
import { createServer } from 'rubrica/server';
const pool = createRenderPool({ workers: 1 });
const ins: Inspection = await inspectCompletion('<svg/>', { renderer: pool });
const r: RenderResult | null = ins.render;
const s = sanitizeSvg('<svg/>');
const clean: string | undefined = s.ok ? s.svg : undefined;
export const used = [r, clean, weightedReward, createServer, RubricaError];
await pool.close();
`;
    await writeFile(join(app, 'consumer.ts'), good);
    // skipLibCheck is off: rubrica's own .d.ts files are checked too (they take minutes on a
    // loaded machine, with every dependency's types).
    const passed = await sh('node', [tsc, '-p', '.'], app, 300_000);
    expect(passed.stdout + passed.stderr).toBe('');
    expect(passed.code).toBe(0);

    await writeFile(
      join(app, 'consumer.ts'),
      `${good}export const wrong: number = ins.artifact.found;\n`,
    );
    const failed = await sh('node', [tsc, '-p', '.'], app, 300_000);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/consumer\.ts\(\d+,\d+\): error TS2322/);
  }, 600_000);
});

describe('what the package directory holds after install', () => {
  it('has no TypeScript sources', async () => {
    const dist = await readdir(join(app, 'node_modules/rubrica/dist'), { recursive: true });
    expect(dist.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });
});
