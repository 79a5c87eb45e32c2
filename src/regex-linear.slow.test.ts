// Every regular expression literal in src/ runs in linear time, as recheck (a ReDoS checker:
// static analysis, then an attack string it confirms) reads it, unless it is listed below with
// the reason its input cannot be hostile. Patterns over a policy's text run on answers of up to
// 2 MiB; in the parent a super-linear one freezes `serve` (no time limit interrupts a regex),
// in a render worker it turns a scored rollout into a render_timeout. See docs/rendering.md,
// "Linear time on hostile text", for what this found when it was written (37 patterns, up to
// 157 s on 500 KB). Patterns built with `new RegExp` are not seen here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** `file: /literal/flags` → why its input is trusted or its repeats are bounded. */
const TRUSTED: Record<string, string> = {
  'src/checks/prompt-intent.ts: /"[^"]{1,200}"|“[^”]{1,200}”|«[^»]{1,200}»|‘[^’]{1,200}’|(?:^|\\s)\'[^\']{1,200}\'(?=$|[\\s.,;:!?])/u':
    "the prompt, not the answer; every repeat bounded at 200 (1 ms on recheck's attack)",
  "src/checks/prompt-intent.ts: /\\b(?:no|not|without|never|avoid|avoiding|exclude|excluding|free of|omit|don't|do not|dont|nor)\\b(?:\\W+\\w+){0,3}\\W+$/iu":
    'the prompt, cut to one clause; 1 ms on a 77 KB attack',
  'src/checks/prompt-words.ts: /"([^"]{1,200})"|“([^”]{1,200})”|«([^»]{1,200})»|‘([^’]{1,200})’/g':
    'the prompt; every repeat bounded at 200',
  'src/domains/doctor-probes.ts: /:lang=(.+)$/': 'a fontconfig query rubrica writes itself',
  'src/probe/svg-doc.ts: /<(defs|clipPath|mask|symbol|pattern|marker)\\b[\\s\\S]*?<\\/\\1\\s*>/gi':
    "`rubrica probe`'s own input drawing, chosen by the user running it",
};

const SRC = import.meta.dirname;

/** The source files under `dir` (no tests, no declaration files). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mts)$/.test(e.name) && !/\.test\.ts$|\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

function regexLiterals(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) out.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('regular expressions in src/', () => {
  it('are linear (recheck) unless their input is trusted', () => {
    const root = join(SRC, '..');
    const files = sourceFiles(SRC).map((f) => relative(root, f));
    const found: string[] = [];
    const seen = new Set<string>();
    let checked = 0;
    for (const file of files) {
      for (const literal of regexLiterals(join(root, file))) {
        const key = `${file}: ${literal}`;
        seen.add(key);
        const end = literal.lastIndexOf('/');
        // g, y and d change how a match is driven, not what the engine backtracks over.
        const flags = literal.slice(end + 1).replace(/[gyd]/g, '');
        const result = checkSync(literal.slice(1, end), flags, { timeout: 10_000 });
        checked++;
        if (result.status === 'vulnerable' && !(key in TRUSTED)) {
          found.push(`${key} — ${result.complexity.type}, attack ${result.attack.pattern}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(found).toEqual([]);
    // A trusted entry whose pattern is gone or changed is removed, not left to excuse another.
    expect(Object.keys(TRUSTED).filter((k) => !seen.has(k))).toEqual([]);
  }, 600_000);
});
