// The public surface is documented where it is declared. Every name the four package entries
// export (package.json "exports": rubrica, rubrica/render, rubrica/reward, rubrica/server)
// must resolve to a declaration with a TSDoc comment (`/** … */`); the entry points below must
// also carry an `@example`, and every example must type-check against the real API. docs/api.md
// is checked against the same exports: a name it imports or calls with named parameters must
// exist with those parameters, so a renamed export or parameter makes stale docs fail here.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The package entries: specifier → source file (mirrors package.json "exports"). */
const ENTRIES: Record<string, string> = {
  rubrica: 'src/index.ts',
  'rubrica/render': 'src/render/index.ts',
  'rubrica/reward': 'src/reward/index.ts',
  'rubrica/server': 'src/server/index.ts',
};

/**
 * The entry points: the calls a user starts from (score, inspect, render, judge, serve,
 * evaluate, probe, synthesise, curate) and the reward kinds' main functions. Each needs an
 * `@example` besides its comment. A helper or a type a user reaches through one of these needs
 * the comment only. Adding a name here is cheap; removing one needs a reason.
 */
const ENTRY_POINTS = [
  // pipeline: the two calls most users start and stop at
  'inspectCompletion',
  'createRolloutScorer',
  // artifact, checks, domains
  'extractArtifact',
  'runChecks',
  'createDomainRenderers',
  // render
  'createRenderPool',
  'renderSvg',
  'renderFiles',
  'sanitizeSvg',
  'createBrowserRoom',
  // models and judges
  'createModelClient',
  'checkModel',
  'createJudge',
  'createPrismaJudge',
  // reward: the tree, the kinds, the hybrid reward, GRPO, PrismaForge's scorer, selection
  'evaluateTree',
  'REWARD_FUNCTIONS',
  'weightedReward',
  'createHybridRewarder',
  'scoreHybrid',
  'groupAdvantages',
  'elasticTree',
  'selectPrompts',
  // rubric synthesis, loading and curation
  'createRubricSynthesizer',
  'createPrismaSynthesizer',
  'parseRubricsJsonl',
  'gateCandidate',
  'createCurateDeps',
  'decontaminateFiles',
  // scorers
  'loadClipModel',
  'createHttpScorer',
  // store
  'openCache',
  // eval, probe, monitors
  'runEval',
  'generateRollouts',
  'compareRuns',
  'align',
  'loadRunDir',
  'runProbe',
  'batchHealth',
  'createHealthMonitor',
  // server
  'createServer',
  'startServer',
] as const;

/**
 * Names an `@example` may use without defining them: the inputs a caller already holds.
 * Examples are type-checked with these declared and every public name imported.
 */
const EXAMPLE_INPUTS = `
declare const completion: string;
declare const svg: string;
declare const prompt: string;
declare const rollout: RolloutInput;
declare const rollouts: RolloutInput[];
declare const scorer: InspectingScorer;
declare const pool: RenderPool;
declare const inspection: Inspection;
declare const client: RubricaModelClient;
declare const rubrics: RubricRecord[];
declare const records: ScoreRecord[];
declare const candidate: Candidate;
declare const deps: ReturnType<typeof createCurateDeps>;
declare const png: Buffer;
`;

interface PublicName {
  /** The exported name (as an entry exports it; may be an alias). */
  name: string;
  /** The entries that export it. */
  entries: string[];
  symbol: ts.Symbol;
  isValue: boolean;
}

/** Parsed files shared by the programs below, so the second one parses only the examples. */
const parsed = new Map<string, ts.SourceFile | undefined>();

function buildProgram(extra: Map<string, string> = new Map(), old?: ts.Program): ts.Program {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => {
    const text = extra.get(file);
    if (text !== undefined) return ts.createSourceFile(file, text, lang);
    if (!parsed.has(file)) parsed.set(file, getSourceFile(file, lang, ...rest));
    return parsed.get(file);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => extra.has(file) || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => extra.get(file) ?? readFile(file);
  const roots = [...Object.values(ENTRIES).map((f) => join(ROOT, f)), ...extra.keys()];
  return ts.createProgram(roots, options, host, old);
}

function publicNames(program: ts.Program): Map<string, PublicName> {
  const checker = program.getTypeChecker();
  const names = new Map<string, PublicName>();
  for (const [spec, file] of Object.entries(ENTRIES)) {
    const sf = program.getSourceFile(join(ROOT, file));
    const mod = sf && checker.getSymbolAtLocation(sf);
    if (!mod) throw new Error(`cannot read the exports of ${file}`);
    for (const exported of checker.getExportsOfModule(mod)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const known = names.get(exported.name);
      if (known) known.entries.push(spec);
      else
        names.set(exported.name, {
          name: exported.name,
          entries: [spec],
          symbol,
          isValue: (symbol.flags & ts.SymbolFlags.Value) !== 0,
        });
    }
  }
  return names;
}

/** Where a declaration is, for a failure message: `src/x/y.ts:12`. */
function where(decl: ts.Declaration): string {
  const sf = decl.getSourceFile();
  const line = sf.getLineAndCharacterOfPosition(decl.getStart(sf)).line + 1;
  return `${relative(ROOT, sf.fileName)}:${line}`;
}

/** The TSDoc blocks of a declaration (a variable's sit on its statement; TS finds them). */
function docsOf(decl: ts.Declaration): ts.JSDoc[] {
  return ts.getJSDocCommentsAndTags(decl).filter((d): d is ts.JSDoc => ts.isJSDoc(d));
}

/** The code of each `@example` on a symbol's declarations, without its ``` fences. */
function examplesOf(symbol: ts.Symbol): string[] {
  const out: string[] = [];
  for (const decl of symbol.declarations ?? []) {
    for (const doc of docsOf(decl)) {
      for (const tag of doc.tags ?? []) {
        if (tag.tagName.text !== 'example') continue;
        const text = ts.getTextOfJSDocComment(tag.comment) ?? '';
        out.push(text.replace(/^\s*```[a-z]*\s*\n?/, '').replace(/\n?\s*```\s*$/, ''));
      }
    }
  }
  return out;
}

const program = buildProgram();
const checker = program.getTypeChecker();
const names = publicNames(program);

describe('TSDoc on the public surface', () => {
  it('reads the four entries', () => {
    // A guard against a broken reader passing every check below vacuously.
    expect(names.size).toBeGreaterThan(300);
    expect(names.get('createRolloutScorer')?.entries).toEqual(['rubrica']);
    expect(names.get('leaf')?.entries).toEqual(['rubrica', 'rubrica/reward']);
    // ENTRIES is package.json's "exports", each dist/…/x.js read from its src/…/x.ts.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string } | string>;
    };
    const fromPkg = Object.entries(pkg.exports)
      .filter(([, v]) => typeof v === 'object' && v.import)
      .map(([k, v]) => [
        `rubrica${k.slice(1)}`,
        (v as { import: string }).import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
      ]);
    expect(Object.fromEntries(fromPkg)).toEqual(ENTRIES);
  });

  it('every public export has a TSDoc comment where it is declared', () => {
    const missing: string[] = [];
    for (const { name, symbol } of names.values()) {
      const decls = symbol.declarations ?? [];
      const documented = decls.some((d) => docsOf(d).some((doc) => doc.comment !== undefined));
      if (!documented) missing.push(`${name} (${decls[0] ? where(decls[0]) : '?'})`);
    }
    expect(missing.sort()).toEqual([]);
  });

  it('every entry point is public and has an @example', () => {
    const notPublic = ENTRY_POINTS.filter((n) => !names.has(n));
    expect(notPublic).toEqual([]);
    const without = ENTRY_POINTS.filter((n) => {
      const p = names.get(n);
      return p !== undefined && examplesOf(p.symbol).length === 0;
    });
    expect(without).toEqual([]);
  });

  it('every @example type-checks against the real API', () => {
    // Each example becomes a virtual module beside the entries that imports the public names
    // it uses, declares the usual inputs (EXAMPLE_INPUTS) and runs it inside an async function.
    const importsFor = (code: string): string => {
      const used = new Set(`${code}\n${EXAMPLE_INPUTS}`.match(/[A-Za-z_$][\w$]*/g));
      const lines = Object.entries(ENTRIES).map(([spec, file]) => {
        const list = [...names.values()]
          .filter((p) => p.entries[0] === spec && used.has(p.name))
          .map((p) => (p.isValue ? p.name : `type ${p.name}`));
        return list.length
          ? `import { ${list.join(', ')} } from './${relative('src', file)}';`
          : '';
      });
      return [...lines, `import { readFileSync, writeFileSync } from 'node:fs';`].join('\n');
    };
    const files = new Map<string, string>();
    const owner = new Map<string, string>();
    for (const p of names.values()) {
      examplesOf(p.symbol).forEach((code, i) => {
        const file = join(ROOT, 'src', `__example_${p.name}_${i}.ts`);
        const body = `export async function example(): Promise<void> {\n${code}\n}\n`;
        files.set(file, `${importsFor(code)}\n${EXAMPLE_INPUTS}\n${body}`);
        owner.set(file, p.name);
      });
    }
    expect(files.size).toBeGreaterThanOrEqual(ENTRY_POINTS.length);
    // The first program's files are reused: only the examples are new to parse.
    const withExamples = buildProgram(files, program);
    const errors: string[] = [];
    for (const file of files.keys()) {
      const sf = withExamples.getSourceFile(file);
      if (!sf) throw new Error(`example ${file} not compiled`);
      const diags = [
        ...withExamples.getSyntacticDiagnostics(sf),
        ...withExamples.getSemanticDiagnostics(sf),
      ];
      for (const d of diags) {
        errors.push(`${owner.get(file)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      }
    }
    expect(errors).toEqual([]);
  });
});

/** docs/api.md, outside and inside its code blocks. */
const apiDoc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

/** The parameters a public function declares: their names and, for each, its property names. */
function parametersOf(name: string): { name: string; props: string[] }[] | undefined {
  const symbol = names.get(name)?.symbol;
  const decl = symbol?.declarations?.[0];
  if (!symbol || !decl) return undefined;
  const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
  const sig = checker.getSignaturesOfType(type, ts.SignatureKind.Call)[0];
  return sig?.parameters.map((p) => ({
    name: p.name,
    props: checker
      .getPropertiesOfType(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl)))
      .map((q) => q.name),
  }));
}

/** `import { … } from 'rubrica…'` lines naming something that entry does not export. */
function staleImports(doc: string): string[] {
  const stale: string[] = [];
  for (const m of doc.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(rubrica[^']*)'/g)) {
    const spec = m[2] as string;
    for (const raw of (m[1] as string).split(',')) {
      const name = raw.replace(/^\s*type\s+/, '').trim();
      if (name && !names.get(name)?.entries.includes(spec)) stale.push(`${name} from ${spec}`);
    }
  }
  return stale;
}

/**
 * Names api.md mentions as parts of an export rather than as exports: a member → the public
 * type that must have it (checked), or null with the reason. Each must still occur in api.md,
 * so the list cannot outlive its reason.
 */
const PARTS: Record<string, string | null> = {
  isRetryable: 'RubricaError',
  judgeRubric: 'PrismaJudge',
  judgeDirect: 'PrismaJudge',
  prismaRubrics: 'RolloutScorerOptions',
  codeJudge: 'RolloutScorerOptions',
  prismaLambdas: 'RolloutScorerOptions',
  // Thrown by loadClipModel, not exported: a RubricaError, caught by its `code`.
  MissingDependencyError: null,
};

/** Whether public type `owner` (an interface, type or class instance) has member `name`. */
function hasMember(owner: string, name: string): boolean {
  const symbol = names.get(owner)?.symbol;
  if (!symbol) return false;
  return checker.getDeclaredTypeOfSymbol(symbol).getProperty(name) !== undefined;
}

/**
 * Backticked names that look like API names (camelCase with a capital, PascalCase or
 * CONSTANT_CASE) but are neither public exports nor PARTS: a renamed or removed export.
 */
function staleNames(doc: string): string[] {
  const stale = new Set<string>();
  for (const m of doc.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) {
    const word = m[1] as string;
    const apiLike =
      /^[a-z]+[A-Z]/.test(word) || /^[A-Z][a-z]/.test(word) || /^[A-Z]+_[A-Z]/.test(word);
    if (apiLike && !names.has(word) && !(word in PARTS)) stale.add(word);
  }
  return [...stale];
}

/**
 * The call shapes written in the prose that disagree with the code. Two shapes are read:
 * "`f` (a, b, c)" names the leading parameters in order; "`f` (`{a, b}`)" names properties
 * of its first (options) parameter. Other parentheses are prose and are skipped.
 */
function wrongCallShapes(doc: string): { checked: number; wrong: string[] } {
  const wrong: string[] = [];
  let checked = 0;
  for (const m of doc.matchAll(/`([A-Za-z_]\w*)` \(([^)]*)\)/g)) {
    const name = m[1] as string;
    const inner = m[2] as string;
    const positional = /^\w+(, \w+)+$/.test(inner) ? inner.split(', ') : null;
    const object = /^`\{\s*(\w+(?:,\s*\w+)*)\s*\}`$/.exec(inner)?.[1]?.split(/,\s*/) ?? null;
    if (!positional && !object) continue;
    checked++;
    const params = parametersOf(name);
    if (!params) {
      wrong.push(`${name}: not a public function`);
    } else if (positional) {
      const real = params.map((p) => p.name);
      if (positional.join() !== real.slice(0, positional.length).join())
        wrong.push(`${name}: api.md (${positional.join(', ')}), code (${real.join(', ')})`);
    } else if (object) {
      const unknown = object.filter((p) => !params[0]?.props.includes(p));
      if (unknown.length) wrong.push(`${name}: no option ${unknown.join(', ')}`);
    }
  }
  return { checked, wrong };
}

describe('docs/api.md against the exports', () => {
  it('every name an api.md code block imports is exported by that entry', () => {
    expect(staleImports(apiDoc)).toEqual([]);
    // The check itself: a name moved to another entry, and one that is gone.
    expect(staleImports("import { leaf, createRenderPool } from 'rubrica/reward';")).toEqual([
      'createRenderPool from rubrica/reward',
    ]);
    expect(staleImports("import { scoreRollouts } from 'rubrica';")).toEqual([
      'scoreRollouts from rubrica',
    ]);
  });

  it('every exported-looking name api.md mentions is exported', () => {
    expect(staleNames(apiDoc)).toEqual([]);
    const parts = Object.entries(PARTS);
    expect(parts.filter(([p]) => !apiDoc.includes(`\`${p}\``))).toEqual([]);
    expect(parts.filter(([p, owner]) => owner !== null && !hasMember(owner, p))).toEqual([]);
    expect(staleNames('`createRenderPool`, `makeRenderPool`, `code`, `DEFAULT_LIMIT_X`')).toEqual([
      'makeRenderPool',
      'DEFAULT_LIMIT_X',
    ]);
  });

  it('the call shapes api.md gives match the real parameters', () => {
    const { checked, wrong } = wrongCallShapes(apiDoc);
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(wrong).toEqual([]);
    const stale = wrongCallShapes(
      '`gateCandidate` (c, deps), `createPrismaJudge` (`{client, model}`), `runEval` (a, b)',
    );
    expect(stale.wrong).toEqual([
      'gateCandidate: api.md (c, deps), code (candidate, gate, deps, signal)',
      'createPrismaJudge: no option model',
      'runEval: api.md (a, b), code (opts)',
    ]);
  });
});
