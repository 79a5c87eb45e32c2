// The documented examples, checked without running anything: every fenced block of README.md
// and docs/*.md is found (test/docs/code-blocks.ts says what is checked how), every
// TypeScript block type-checks in strict mode against src/, every JSON block parses. The
// running half (shell, tsx, python) is docs-run.slow.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allDocBlocks, type DocBlock, extractBlocks, where } from './code-blocks.ts';
import { formatDiagnostics, typeCheckBlocks } from './compile-blocks.ts';
import { PENDING_FIXES, pendingFix } from './pending-fixes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const blocks = allDocBlocks(ROOT);

describe('the fence scanner', () => {
  it('finds fences with their line, language and indentation, and reads markers', () => {
    const md = [
      'Text with ```` ```svg ```` inline, not a fence.', // 1
      '', // 2
      '<!-- doc-test: static — needs a GPU -->', // 3
      '', // 4
      '```sh', // 5
      'vllm serve x', // 6
      '```', // 7
      '- a list item:', // 8
      '', // 9
      '  ```json', // 10
      '  {"a": 1}', // 11
      '  ```', // 12
      '~~~', // 13
      '```not a close', // 14
      '~~~', // 15
    ].join('\n');
    const bs = extractBlocks('x.md', md);
    expect(bs.map((b) => [b.line, b.kind, b.mode, b.reason, b.code])).toEqual([
      [5, 'sh', 'static', 'needs a GPU', 'vllm serve x\n'],
      [10, 'json', 'run', null, '{"a": 1}\n'],
      [13, 'data', 'run', null, '```not a close\n'],
    ]);
  });

  it('refuses an unclosed fence, a marker without a reason and an unknown marker', () => {
    expect(() => extractBlocks('x.md', '```ts\nconst a = 1;\n')).toThrow('x.md:1: fence never');
    expect(() => extractBlocks('x.md', '<!-- doc-test: static -->\n```sh\nls\n```\n')).toThrow(
      'must say why',
    );
    expect(() => extractBlocks('x.md', '<!-- doc-test: skip -->\n```sh\nls\n```\n')).toThrow(
      'unreadable',
    );
  });
});

describe('documented blocks', () => {
  it('are found in README.md and docs/, of every checked kind', () => {
    const kinds = new Set(blocks.map((b) => b.kind));
    for (const k of ['ts', 'sh', 'python', 'json'] as const) expect(kinds).toContain(k);
    expect(blocks.filter((b) => b.kind === 'ts').length).toBeGreaterThan(15);
  });

  it('python blocks are marked static with a reason (none runs here)', () => {
    const unmarked = blocks.filter((b) => b.kind === 'python' && b.mode !== 'static');
    expect(unmarked.map(where)).toEqual([]);
  });

  it('json blocks parse, as one value or as JSON Lines, unless abbreviated with …', () => {
    const bad = blocks
      .filter((b) => b.kind === 'json' && b.mode === 'run' && !abbreviated(b))
      .filter((b) => !parsesAsJson(b.code))
      .map(where);
    expect(bad).toEqual([]);
  });

  it('TypeScript blocks type-check in strict mode against the sources', () => {
    // The old api.md example (createRolloutScorer without await) goes through the same
    // program: the check must catch it, or it checks nothing.
    const broken: DocBlock = {
      file: 'test/docs/known-broken.md',
      line: 1,
      lang: 'ts',
      kind: 'ts',
      mode: 'run',
      reason: null,
      code: [
        "import { createRolloutScorer } from 'rubrica';",
        "const scorer = createRolloutScorer({ rubrics: 'r.jsonl', judge: 'vllm:m' });",
        'await scorer.close();',
        '',
      ].join('\n'),
    };
    const ts = blocks.filter((b) => b.kind === 'ts');
    const diags = typeCheckBlocks(ROOT, [...ts, broken]);
    const canary = diags.filter((d) => d.block === broken);
    expect(canary.map((d) => d.message).join('\n')).toMatch(
      /Property 'close' does not exist on type 'Promise</,
    );
    const real = diags.filter((d) => d.block !== broken && !pendingFix(d.block));
    expect(formatDiagnostics(real)).toBe('');
    // A pending fix that is no longer needed must be removed from the list.
    const stillBroken = new Set(diags.map((d) => d.block));
    const fixed = ts.filter((b) => pendingFix(b)?.compile && !stillBroken.has(b)).map(where);
    expect(fixed).toEqual([]);
  }, 180_000);

  it('every pending fix still names a block of the docs', () => {
    for (const p of PENDING_FIXES) {
      const text = readFileSync(join(ROOT, p.file), 'utf8');
      expect(text, `${p.file}: ${p.contains}`).toContain(p.contains);
    }
  });
});

/** An ellipsis outside a string: an abbreviated shape ("usage":{"calls":1,…}), not JSON. */
function abbreviated(b: DocBlock): boolean {
  return b.code.replace(/"(?:[^"\\]|\\.)*"/g, '""').includes('…');
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    const lines = text.split('\n').filter((l) => l.trim());
    try {
      for (const l of lines) JSON.parse(l);
      return lines.length > 0;
    } catch {
      return false;
    }
  }
}
