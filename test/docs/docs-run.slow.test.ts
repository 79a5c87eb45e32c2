// The documented examples, run: every TypeScript and shell block of README.md and docs/*.md
// not marked otherwise runs in a scratch directory holding the files the docs name
// (workdir.ts), with every model role pointed at the loopback model double, and must succeed;
// static blocks are syntax-checked (bash -n, python3's compiler); synopsis blocks must name
// real commands and flags. The rules and markers: test/docs/code-blocks.ts.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelDouble } from '../support/model-double.ts';
import { schemaAnswerer } from '../support/schema-answerer.ts';
import { allDocBlocks, type DocBlock, where } from './code-blocks.ts';
import { pendingFix } from './pending-fixes.ts';
import { makeWorkdir } from './workdir.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const blocks = allDocBlocks(ROOT);
const RUN_TIMEOUT_MS = 240_000;

// A policy's answer when no schema is sent (generate, an author's ideal drawing).
const DRAWING = [
  '## Concept Sketching\nA red circle.\n## Canvas Planning\nviewBox 0 0 100 100.',
  '## Shape Decomposition\nOne circle.\n## Coordinate Calculation\nCentre 50,50, r 40.',
  '## Styling and Colouring\nRed fill.\n## Final Assembly\n',
  '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
  '<circle cx="50" cy="50" r="40" fill="#d22"/></svg>\n```',
].join('\n');

let double: Awaited<ReturnType<typeof startModelDouble>>;
beforeAll(async () => {
  double = await startModelDouble({
    handler: schemaAnswerer({ seed: 3, free: () => ({ content: DRAWING }) }).handler,
  });
});
afterAll(async () => {
  await double?.close();
});

/** The environment a reader sets: every role's server, and a judge spec for `$JUDGE`. */
function readerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, RUBRICA_FROM_SOURCE: '1', JUDGE: 'vllm:judge' };
  for (const role of ['JUDGE', 'AUTHOR', 'POLICY', 'CODE_JUDGE', 'GENERATOR']) {
    env[`RUBRICA_${role}_BASE_URL`] = double.url;
  }
  return env;
}

interface Ran {
  code: number | null;
  out: string;
}

function run(cmd: string, args: string[], cwd: string, env = readerEnv()): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS - 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const modeOf = (b: DocBlock) => (pendingFix(b)?.static ? 'static' : b.mode);
const label = (b: DocBlock) => `${where(b)} (${b.lang})`;

// `rubrica` in a block is the clone's binary on its sources, as README.md's Install says.
const SHELL_PRELUDE = `set -eo pipefail
rubrica() { RUBRICA_FROM_SOURCE=1 node "${join(ROOT, 'bin', 'rubrica.js')}" "$@"; }
`;

describe('shell blocks', () => {
  const sh = blocks.filter((b) => b.kind === 'sh');

  for (const b of sh.filter((x) => modeOf(x) === 'static')) {
    it(`${label(b)} parses (bash -n)`, async () => {
      const r = await run('bash', ['-n', '-c', b.code], ROOT);
      expect(r.code, r.out.slice(-4000)).toBe(0);
    });
  }

  for (const b of sh.filter((x) => modeOf(x) === 'synopsis')) {
    it(`${label(b)} names real commands and flags`, async () => {
      for (const use of synopsisUses(b.code)) {
        const help = await run('node', ['bin/rubrica.js', ...use.command, '--help'], ROOT);
        expect(help.code, `${use.command.join(' ')}: ${help.out.slice(-4000)}`).toBe(0);
        const missing = use.flags.filter((f) => !new RegExp(`${f}(?![\\w-])`).test(help.out));
        expect(missing, `rubrica ${use.command.join(' ')} --help`).toEqual([]);
      }
    });
  }

  for (const b of sh.filter((x) => modeOf(x) === 'run')) {
    it(
      `${label(b)} runs and exits 0`,
      async () => {
        const dir = await makeWorkdir(ROOT, 'sh');
        const r = await run('bash', ['-c', SHELL_PRELUDE + b.code], dir);
        rmSync(dir, { recursive: true, force: true }); // removes the links, not the clone
        expect(r.code, r.out.slice(-4000)).toBe(0);
      },
      RUN_TIMEOUT_MS,
    );
  }
});

describe('TypeScript blocks', () => {
  const runnable = blocks.filter(
    (b) => b.kind === 'ts' && modeOf(b) === 'run' && !pendingFix(b)?.compile,
  );
  for (const b of runnable) {
    it(
      `${label(b)} runs with tsx and exits 0`,
      async () => {
        const dir = await makeWorkdir(ROOT, 'ts');
        writeFileSync(join(dir, 'example.ts'), b.code);
        const r = await run('node', ['--import', 'tsx', 'example.ts'], dir);
        rmSync(dir, { recursive: true, force: true });
        expect(r.code, r.out.slice(-4000)).toBe(0);
      },
      RUN_TIMEOUT_MS,
    );
  }
});

describe('python blocks', () => {
  for (const b of blocks.filter((x) => x.kind === 'python')) {
    it(`${label(b)} compiles`, async () => {
      const check = 'import sys; compile(sys.argv[1], sys.argv[2], "exec")';
      const r = await run('python3', ['-c', check, b.code, where(b)], ROOT);
      expect(r.code, r.out.slice(-4000)).toBe(0);
    });
  }
});

interface SynopsisUse {
  command: string[];
  flags: string[];
}

// Commands with subcommands: `rubrica rubric synth`, `models check`, `export verl|sft`.
const GROUPS = new Set(['rubric', 'models', 'export']);

/** Each `rubrica <command>` of a synopsis with the flags it names (continuation lines joined). */
function synopsisUses(code: string): SynopsisUse[] {
  const text = code.replace(/\\\n/g, ' ');
  const uses: SynopsisUse[] = [];
  for (const line of text.split('\n')) {
    const m = /(?:^|[|;&]\s*)rubrica\s+([a-z-]+)(?:\s+([a-z-]+))?(.*)$/.exec(
      line.split('#')[0] ?? '',
    );
    if (!m?.[1]) continue;
    const command = GROUPS.has(m[1]) && m[2] ? [m[1], m[2]] : [m[1]];
    const rest = GROUPS.has(m[1]) ? (m[3] ?? '') : `${m[2] ?? ''}${m[3] ?? ''}`;
    const flags = [...rest.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((f) => f[0]);
    uses.push({ command, flags: [...new Set(flags)] });
  }
  return uses;
}
