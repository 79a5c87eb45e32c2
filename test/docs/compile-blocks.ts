// Type-checks documented TypeScript blocks (test/docs/code-blocks.ts) with the TypeScript
// compiler API: one program holding every block as its own ES module, compiled as the
// project's own code is (tsconfig.json: strict, noUncheckedIndexedAccess, NodeNext), with the
// package's entry points `rubrica`, `rubrica/reward`, `rubrica/render` and `rubrica/server`
// mapped to their sources in src/ — the types a reader of this clone gets, never a stale dist/.
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { type DocBlock, where } from './code-blocks.ts';

/** Where the package's entry points live in the sources (package.json "exports" → src/). */
export const ENTRY_SOURCES: Record<string, string> = {
  rubrica: 'src/index.ts',
  'rubrica/reward': 'src/reward/index.ts',
  'rubrica/render': 'src/render/index.ts',
  'rubrica/server': 'src/server/index.ts',
};

export interface BlockDiagnostic {
  block: DocBlock;
  /** `file.md:line` of the offending line in the docs, and the compiler's message. */
  message: string;
}

/**
 * The path a block is compiled at. Under src/ (a directory of its own, never written to disk):
 * a contributor's snippet importing `../../test/support/…` resolves as in a room's test file.
 */
export function virtualPath(root: string, b: DocBlock): string {
  const name = `${b.file.replace(/[^A-Za-z0-9]+/g, '-')}-${b.line}.ts`;
  return join(root, 'src', '__doc_blocks__', name);
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  const paths = Object.fromEntries(
    Object.entries(ENTRY_SOURCES).map(([spec, file]) => [spec, [join(root, file)]]),
  );
  return { ...parsed.options, noEmit: true, baseUrl: root, paths };
}

/** Every compiler error in the given blocks, mapped back to the line of the docs. */
export function typeCheckBlocks(root: string, blocks: DocBlock[]): BlockDiagnostic[] {
  const byPath = new Map(blocks.map((b) => [virtualPath(root, b), b]));
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, lang, onError, fresh) => {
    const b = byPath.get(fileName);
    if (b) return ts.createSourceFile(fileName, b.code, lang, true, ts.ScriptKind.TS);
    return getSourceFile(fileName, lang, onError, fresh);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => byPath.has(f) || fileExists(f);
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => byPath.get(f)?.code ?? readFile(f);
  const program = ts.createProgram([...byPath.keys()], options, host);
  const out: BlockDiagnostic[] = [];
  for (const [path, block] of byPath) {
    const sf = program.getSourceFile(path);
    const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    for (const d of diags) {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const line =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      out.push({ block, message: `${block.file}:${block.line + 1 + line}: ${text}` });
    }
  }
  return out;
}

/** One line per diagnostic, for an assertion message. */
export const formatDiagnostics = (ds: BlockDiagnostic[]): string =>
  ds.map((d) => `${where(d.block)} → ${d.message}`).join('\n');
