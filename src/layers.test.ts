// The room order of docs/architecture.md, enforced: every import in src/ (static, dynamic,
// re-export and type-only alike) must point to its own room or to a room below it, and no
// two files may import each other through any chain. A new folder under src/ fails here
// until it is given a place in ROOMS (and in the document).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Bottom to top: a room may import itself and any room before it, never one after it. */
const ROOMS = [
  'core',
  'artifact',
  'browser',
  'render',
  'checks',
  'domains',
  'inspect',
  'models',
  'store',
  'rubric',
  'judge',
  'scorers',
  'reward',
  'pipeline',
  'synth',
  'curation',
  'monitors',
  'eval',
  'probe',
  'export',
  'server',
  'studio',
  'proxy',
  'cli',
] as const;

/**
 * Imports that go against the order on purpose, each with its reason. Empty today; an entry
 * is `'from/file.ts -> to/file.ts': 'why'`, and one that no longer occurs fails the test.
 */
const ALLOWED_UPWARD: Record<string, string> = {};

const SRC = import.meta.dirname;
/** The package's entry points sit above every room (src/index.ts is the root export). */
const ENTRY = 'index.ts';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts)$/.test(e.name) && !/\.test\.ts$|\.d\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Every relative module specifier a file names, with whether it names types only. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: { spec: string; typeOnly: boolean }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      found.push({ spec: n.moduleSpecifier.text, typeOnly: n.importClause?.isTypeOnly === true });
    } else if (
      ts.isExportDeclaration(n) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    ) {
      found.push({ spec: n.moduleSpecifier.text, typeOnly: n.isTypeOnly });
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteralLike(n.arguments[0])
    ) {
      found.push({ spec: n.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(n) &&
      ts.isLiteralTypeNode(n.argument) &&
      ts.isStringLiteral(n.argument.literal)
    ) {
      found.push({ spec: n.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found.filter((i) => i.spec.startsWith('.'));
}

function roomOf(rel: string): string {
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : ENTRY;
}

const files = sourceFiles(SRC).map((f) => relative(SRC, f));
const edges = files.flatMap((from) =>
  importsOf(join(SRC, from)).map(({ spec, typeOnly }) => ({
    from,
    to: normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts'),
    typeOnly,
  })),
);
const rank = new Map<string, number>(ROOMS.map((r, i) => [r, i]));

describe('room order (docs/architecture.md)', () => {
  it('every folder under src/ is a room with a place in the order', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'types') // types/: ambient .d.ts only
      .map((e) => e.name);
    expect(folders.filter((f) => !rank.has(f))).toEqual([]);
    expect(ROOMS.filter((r) => !folders.includes(r))).toEqual([]);
  });

  it('no import points to a room above its own (type-only imports included)', () => {
    const upward = edges
      .filter((e) => roomOf(e.from) !== ENTRY && roomOf(e.from) !== roomOf(e.to))
      .filter((e) => roomOf(e.to) === ENTRY || rank.get(roomOf(e.to))! > rank.get(roomOf(e.from))!)
      .map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`);
    const unexplained = upward.filter((u) => !(u.replace(' (type)', '') in ALLOWED_UPWARD));
    expect(unexplained).toEqual([]);
    const stale = Object.keys(ALLOWED_UPWARD).filter(
      (k) => !upward.some((u) => u.replace(' (type)', '') === k),
    );
    expect(stale).toEqual([]);
  });

  it('every import resolves to a file in src/', () => {
    const known = new Set(files);
    expect(edges.filter((e) => !known.has(e.to) && !e.to.startsWith('..'))).toEqual([]);
  });

  it('no two files import each other, directly or through others', () => {
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    expect(cycles(files, next)).toEqual([]);
  });

  it('docs/architecture.md lists the rooms in this order', () => {
    const doc = readFileSync(join(SRC, '../docs/architecture.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...ROOMS]);
  });

  it('fails on an upward import (the check itself works)', () => {
    const fake = { from: 'core/x.ts', to: 'cli/main.ts' };
    expect(rank.get(roomOf(fake.to))! > rank.get(roomOf(fake.from))!).toBe(true);
    const loop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(['a.ts', 'b.ts', 'c.ts'], loop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});

/** Strongly connected groups of more than one file (Tarjan), each sorted. */
function cycles(nodes: readonly string[], next: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}
