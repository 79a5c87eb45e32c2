// A promise returned without `await` from inside a `try` leaves the `try` at once: its
// `finally` runs before the promise settles and its `catch` never sees the rejection. The
// warm dot pool freed a process's slot that way while the job was still drawing, so two jobs
// shared one process and got each other's pictures (issue 23). Biome has no rule for it; this
// test asks the TypeScript checker for every such `return` in src/.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** A promise, or a union with one in it: anything with a `then` to wait for. */
function isThenable(checker: ts.TypeChecker, type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => checker.getPropertyOfType(t, 'then') !== undefined);
}

function unawaitedReturnsInTry(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const files = config.fileNames.filter((f) => f.includes('/src/') && !/\.test\.ts$/.test(f));
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!files.includes(sf.fileName)) continue;
    const visit = (node: ts.Node, guarded: boolean): void => {
      if (ts.isFunctionLike(node)) guarded = false; // a nested function has its own returns
      if (ts.isTryStatement(node)) {
        visit(node.tryBlock, true);
        if (node.catchClause) visit(node.catchClause, Boolean(node.finallyBlock) || guarded);
        if (node.finallyBlock) visit(node.finallyBlock, guarded);
        return;
      }
      if (guarded && ts.isReturnStatement(node) && node.expression) {
        const e = node.expression;
        const type = checker.getTypeAtLocation(e);
        if (!ts.isAwaitExpression(e) && isThenable(checker, type)) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${sf.fileName.slice(root.length + 1)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, (child) => visit(child, guarded));
    };
    visit(sf, false);
  }
  return found;
}

describe('promises returned from a try', () => {
  it('are awaited, so the finally and catch see them settle', () => {
    expect(unawaitedReturnsInTry()).toEqual([]);
  }, 120_000);
});
