// The one list of environment variables (env.ts) against what reads them and what tells a
// user about them: every name the code reads is listed and every listed name is read; the
// root help prints each entry; docs/environment.md gives each the same default.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.ts';
import { roleVariables } from '../models/role-config.ts';
import { PROVIDERS } from '../models/spec.ts';
import type { Role } from '../models/types.ts';
import { ENV_VARS, type EnvName, readEnv } from './env.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const LISTED = new Set<string>(ENV_VARS.map((v) => v.name));

// Every role, checked against the type: a role added to Role and not here does not compile.
const ROLES = ['author', 'judge', 'policy'] as const satisfies readonly Role[];
const allRoles: [Exclude<Role, (typeof ROLES)[number]>] extends [never] ? true : false = true;

/** Names read under computed keys: the role variables and the providers' key variables. */
function computedNames(): string[] {
  const roles = ROLES.flatMap((r) => Object.values(roleVariables(r)));
  const keys = Object.values(PROVIDERS).flatMap((p) => (p.keyVariable ? [p.keyVariable] : []));
  return [...roles, ...keys];
}

interface EnvReads {
  names: Set<string>;
  /** The names among them read without `readEnv` (so without its type check). */
  direct: Set<string>;
  /** `process.env[expr]` with a key that is not a string literal: the name cannot be checked. */
  computed: string[];
}

/**
 * The environment variables one source file reads, found by pattern: `process.env.NAME`,
 * `process.env['NAME']`, `const { NAME } = process.env`, `readEnv('NAME')` and `env.NAME` /
 * `env['NAME']` on an environment handed in. Assignments are writes, not reads; comments
 * are left out so a comment naming a variable does not count as reading it.
 */
function envReads(source: string): EnvReads {
  // A block comment opens after a line start or a space (not the `/*` inside a glob string).
  const code = source.replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1').replace(/^\s*\/\/.*$/gm, '');
  const names = new Set<string>();
  const direct = new Set<string>();
  const computed: string[] = [];
  const write = /^\s*(?:=(?!=)|\?\?=|\|\|=)/;
  const add = (name: string, rest: string) => {
    if (write.test(rest)) return;
    names.add(name);
    direct.add(name);
  };
  for (const m of code.matchAll(/\b(?:process\.)?env\??\.([A-Za-z_][\w]*)/g)) {
    // `env.X` only counts for upper-case names (`tf.env.allowRemoteModels` is not one).
    if (m[0].startsWith('process.') || /^[A-Z][A-Z0-9_]*$/.test(m[1]!))
      add(m[1]!, code.slice(m.index + m[0].length));
  }
  for (const m of code.matchAll(/\benv\??\.?\[\s*(['"`])([^'"`]*)\1\s*\]/g))
    add(m[2]!, code.slice(m.index + m[0].length));
  for (const m of code.matchAll(/\bprocess\.env\[(?!\s*['"`][^'"`]*['"`]\s*\])([^\]]*)\]/g))
    computed.push(m[0]);
  for (const m of code.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g))
    for (const part of m[1]!.split(',')) {
      const name = part.split(':')[0]!.trim();
      if (name) add(name, '');
    }
  for (const m of code.matchAll(/\breadEnv\(\s*(['"`])([^'"`]+)\1/g)) names.add(m[2]!);
  return { names, direct, computed };
}

/** Source files of the package: src/ without tests, plus the bin. */
function sourceFiles(): string[] {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(ts|js|mjs|cjs)$/.test(d.name))
    .filter((d) => !/\.test\.ts$/.test(d.name))
    .map((d) => join(d.parentPath, d.name))
    // The list itself names every variable in its examples.
    .filter((f) => f !== join(ROOT, 'src', 'core', 'env.ts'));
  return [...files, join(ROOT, 'bin', 'rubrica.js')];
}

describe('envReads', () => {
  it('finds each way of reading a variable and skips writes and comments', () => {
    const src = [
      'const a = process.env.RUBRICA_A;',
      "const b = process.env['RUBRICA_B'] ?? 1;",
      'const { RUBRICA_C, RUBRICA_D: d } = process.env;',
      "const e = readEnv('RUBRICA_E', env);",
      'const f = env.RUBRICA_F?.trim();',
      'process.env.RUBRICA_WRITTEN = "1";',
      '// process.env.RUBRICA_COMMENTED',
      '/** e.g. process.env.RUBRICA_IN_DOC */',
      "const glob = 'src/**/*.ts'; const h = process.env.RUBRICA_H; // */",
      'const g = process.env[name];',
      'tf.env.allowRemoteModels = false;',
    ].join('\n');
    const reads = envReads(src);
    expect([...reads.names].sort()).toEqual([
      'RUBRICA_A',
      'RUBRICA_B',
      'RUBRICA_C',
      'RUBRICA_D',
      'RUBRICA_E',
      'RUBRICA_F',
      'RUBRICA_H',
    ]);
    expect(reads.computed).toEqual(['process.env[name]']);
    expect(reads.direct.has('RUBRICA_E')).toBe(false);
    expect(reads.direct.has('RUBRICA_A')).toBe(true);
  });
});

describe('the environment variable list', () => {
  const reads = new Map<string, string[]>();
  const computed: string[] = [];
  const direct: string[] = [];
  for (const file of sourceFiles()) {
    const found = envReads(readFileSync(file, 'utf8'));
    for (const name of found.names) reads.set(name, [...(reads.get(name) ?? []), file]);
    for (const c of found.computed) computed.push(`${file}: ${c}`);
    // bin/rubrica.js runs before any TypeScript can load: it alone reads directly.
    if (!file.endsWith('rubrica.js'))
      for (const name of found.direct) direct.push(`${relative(ROOT, file)}: ${name}`);
  }

  it('has one entry per name, each with a meaning, a default and a reader', () => {
    expect(allRoles).toBe(true);
    expect(LISTED.size).toBe(ENV_VARS.length);
    for (const v of ENV_VARS) {
      expect(v.name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      for (const text of [v.meaning, v.default, v.readBy]) expect(text.trim()).not.toBe('');
    }
  });

  it('lists every variable the code reads', () => {
    const unlisted = [...reads.keys()].filter((n) => !LISTED.has(n));
    expect(unlisted, `read but not in src/core/env.ts: ${unlisted.join(', ')}`).toEqual([]);
    expect(computed, 'process.env[...] with a computed name: use readEnv').toEqual([]);
    const computedUnlisted = computedNames().filter((n) => !LISTED.has(n));
    expect(computedUnlisted, 'role or provider key variables not listed').toEqual([]);
  });

  it('is read in src/ through readEnv, which type-checks the name', () => {
    expect(direct, 'read without readEnv (src/core/env.ts)').toEqual([]);
  });

  it('lists no variable that no code reads', () => {
    const read = new Set([...reads.keys(), ...computedNames()]);
    const stale = [...LISTED].filter((n) => !read.has(n));
    expect(stale, `listed but read nowhere: ${stale.join(', ')}`).toEqual([]);
  });

  it('reads a listed variable from the environment it is given, unchanged', () => {
    expect(readEnv('RUBRICA_TOKEN', { RUBRICA_TOKEN: '' })).toBe('');
    expect(readEnv('RUBRICA_TOKEN', {})).toBeUndefined();
    const name: EnvName = 'RUBRICA_CACHE_DIR';
    expect(readEnv(name, { RUBRICA_CACHE_DIR: '/c' })).toBe('/c');
    // @ts-expect-error an unlisted name is a type error (checked by `tsc --noEmit`)
    expect(readEnv('RUBRICA_NOT_LISTED', { RUBRICA_NOT_LISTED: 'x' })).toBe('x');
  });
});

describe('rubrica --help', () => {
  afterEach(() => vi.restoreAllMocks());

  it('ends with every listed variable, its meaning and its default', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    expect(await main(['node', 'rubrica', '--help'])).toBe(0);
    vi.restoreAllMocks();
    const at = out.indexOf('\nEnvironment variables:\n');
    expect(at, 'no "Environment variables:" section').toBeGreaterThan(-1);
    const section = out.slice(at);
    // commander wraps descriptions: compare with the line breaks and padding folded away.
    const flat = section.replace(/\s+/g, ' ');
    for (const v of ENV_VARS) {
      const item = `${v.name} ${v.meaning} (default: ${v.default})`.replace(/\s+/g, ' ');
      expect(flat).toContain(item);
    }
  });
});

describe('docs/environment.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'environment.md'), 'utf8');
  // The first table, under "## Read by rubrica": | `NAME` | default | meaning | read by |
  const start = doc.indexOf('\n## Read by rubrica');
  const end = doc.indexOf('\n## ', start + 1);
  const rows = new Map<string, string>();
  for (const line of doc.slice(start, end === -1 ? undefined : end).split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '')?.[1];
    if (name) rows.set(name, (cells[2] ?? '').replaceAll('`', '').replaceAll('\\|', '|'));
  }

  it('documents every listed variable with the same default', () => {
    expect(start).toBeGreaterThan(-1);
    for (const v of ENV_VARS) {
      expect(rows.has(v.name), `${v.name} missing from docs/environment.md`).toBe(true);
      expect(rows.get(v.name), `default of ${v.name}`).toBe(v.default);
    }
  });

  it('documents no variable the list does not have', () => {
    expect([...rows.keys()].filter((n) => !LISTED.has(n))).toEqual([]);
  });
});
