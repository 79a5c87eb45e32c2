// Finds every fenced code block in README.md and docs/*.md, with its file, line, language and
// marker, for the tests that compile and run the documented examples (test/docs/*.test.ts).
//
// What is checked, by the block's language (the fence's info string):
//   ts, typescript            type-checked in strict mode against the library's real types
//                             (`rubrica`, `rubrica/reward`, … resolve to src/), as an ES module
//                             (top-level await allowed); then run with tsx in a scratch
//                             directory holding the example files (test/docs/workdir.ts), with
//                             every model role's base URL (RUBRICA_<ROLE>_BASE_URL) pointing at
//                             the model double.
//   sh, bash, shell, console  `bash -n`, then run with `rubrica` meaning
//                             `RUBRICA_FROM_SOURCE=1 node bin/rubrica.js`, in the same kind of
//                             scratch directory and against the same double; every command of the
//                             block must exit 0 (the block runs under `set -e`).
//   python, py                compiled by python3 (syntax); no block runs yet (see below).
//   json                      parsed: as one JSON value, or as JSON Lines (every line a value).
//   anything else, or none    data or a picture (text, jsonl, yaml, svg, output shown): not
//                             checked.
// A block that cannot run here says so in an HTML comment on the line before its fence (blank
// lines between are allowed), with the reason after a dash:
//   <!-- doc-test: static — needs a GPU server running vLLM -->
//       checked without running: ts type-checked, sh `bash -n`, python compiled, json not parsed
//       (e.g. abbreviated with "…").
//   <!-- doc-test: synopsis -->
//       sh only: a usage synopsis (`[--flag X]` optional, `A|B` alternatives). Every
//       `rubrica <command>` in it must be a command, and every `--flag` it names must appear in
//       that command's `--help`.
// Python blocks are never run (the only one needs trl and a GPU); they must carry `static`.
// Fragments are not allowed: a reader pastes a block, so a block is made complete in the docs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BlockKind = 'ts' | 'sh' | 'python' | 'json' | 'data';
export type BlockMode = 'run' | 'static' | 'synopsis';

export interface DocBlock {
  /** Path relative to the repository root, e.g. docs/api.md. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string's first word, as written ('' when none). */
  lang: string;
  kind: BlockKind;
  mode: BlockMode;
  /** Why the block is not run (required for `static`). */
  reason: string | null;
  /** The block's text, its fence's indentation removed, ending in a newline. */
  code: string;
}

const KINDS: Record<string, BlockKind> = {
  ts: 'ts',
  typescript: 'ts',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  console: 'sh',
  python: 'python',
  py: 'python',
  json: 'json',
};

/** `file:line`, how a failing block is named in test output. */
export const where = (b: DocBlock): string => `${b.file}:${b.line}`;

/** README.md and docs/*.md, relative to `root`. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of README.md and docs/*.md. */
export function allDocBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((f) => extractBlocks(f, readFileSync(join(root, f), 'utf8')));
}

// CommonMark's fence: up to three spaces (deeper inside list items, so any indent here), three
// or more backticks or tildes; a backtick fence's info string holds no backtick — which is
// why an inline ```` ```svg ```` at the start of a line is not a fence.
const OPEN = /^(\s*)(`{3,}|~{3,})([^`]*)$/;
const MARKER = /^<!--\s*doc-test:\s*(static|synopsis)\s*(?:[—–-]\s*(.*?))?\s*-->$/;

/** The fenced blocks of one markdown text. Throws on an unclosed fence or a bad marker. */
export function extractBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j] ?? '')) {
      body.push(stripIndent(lines[j] ?? '', indent.length));
      j++;
    }
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: fence never closed`);
    const lang = info.trim().split(/\s+/)[0] ?? '';
    const kind = KINDS[lang.toLowerCase()] ?? 'data';
    const { mode, reason } = markerBefore(file, lines, i, kind);
    blocks.push({ file, line: i + 1, lang, kind, mode, reason, code: `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}

function stripIndent(line: string, n: number): string {
  let k = 0;
  while (k < n && line[k] === ' ') k++;
  return line.slice(k);
}

function markerBefore(
  file: string,
  lines: string[],
  fenceIndex: number,
  kind: BlockKind,
): { mode: BlockMode; reason: string | null } {
  let k = fenceIndex - 1;
  while (k >= 0 && (lines[k] ?? '').trim() === '') k--;
  const prev = (lines[k] ?? '').trim();
  if (!prev.startsWith('<!--') || !prev.includes('doc-test')) return { mode: 'run', reason: null };
  const m = MARKER.exec(prev);
  const at = `${file}:${fenceIndex + 1}`;
  if (!m) throw new Error(`${at}: unreadable doc-test marker ${prev}`);
  const mode = m[1] as BlockMode;
  const reason = m[2]?.trim() || null;
  if (mode === 'static' && !reason) throw new Error(`${at}: a static block must say why`);
  if (mode === 'synopsis' && kind !== 'sh') throw new Error(`${at}: synopsis is for sh blocks`);
  return { mode, reason };
}
