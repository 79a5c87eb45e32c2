// Decontamination of a training set against test sets (PrismaForge A.3): a training sample
// whose instruction shares a word n-gram (default 13) with any test instruction is dropped;
// a test instruction shorter than n words is matched as a whole normalised text instead
// (ngrams.ts). Linear in input size: the test n-grams are hashed once into an index, then
// the training file is streamed line by line, each line written through unchanged (kept) or
// to the dropped file with the test instruction and the n-gram that matched.
//
// Every shape rubrica reads or writes is understood (instructionOf): `instruction`, `prompt`
// or `text` (prompts, rubrics, decisions.jsonl, candidates), and chat `messages` (curate's
// kept.jsonl, `export sft`), whose user turns are the instruction. A line that is none of
// these — not JSON, not UTF-8, no instruction — cannot be shown clean or leaked: it stops the
// run with its file and line (JsonlLineError, exit 1), or with `skipMalformed` it is left
// out of every output and counted. Outputs are written beside their final names and renamed
// when the pass ends, so a stopped run leaves no half-written kept file.
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { isBadLine, JsonlLineError, streamJsonl } from '../store/jsonl-values.ts';
import { type Overlap, TestNgramIndex } from './ngrams.ts';

export const DEFAULT_NGRAM = 13;

/** Text of a chat message's content: a string, or the text parts of a parts array. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content
    .map((p) =>
      typeof p === 'string'
        ? p
        : typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string'
          ? (p as { text: string }).text
          : null,
    )
    .filter((t): t is string => t !== null);
  return parts.length ? parts.join('\n') : null;
}

/**
 * The instruction of a line: `instruction`, else `prompt`, else `text` (a string), else the
 * user turns of chat `messages` joined by newlines; null when the line has none.
 */
export function instructionOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  const t = o.instruction ?? o.prompt ?? o.text;
  if (typeof t === 'string') return t;
  if (t !== undefined && t !== null) return null;
  if (!Array.isArray(o.messages)) return null;
  const user = o.messages
    .filter((m) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'user')
    .map((m) => contentText((m as { content?: unknown }).content))
    .filter((c): c is string => c !== null);
  return user.length ? user.join('\n') : null;
}

/** Why a line has no instruction, for the malformed-line message. */
export const NO_INSTRUCTION =
  'no instruction: expected a string "instruction", "prompt" or "text", or chat "messages" with a user turn';

export interface DecontaminateOptions {
  train: string;
  /** Test files; each file is one test set, named by its file name. */
  tests: string[];
  /** Kept training lines, byte for byte. */
  out: string;
  /** Dropped training lines: {id, line, test_id, test_set, ngram, rule}. */
  dropped?: string;
  n?: number;
  /** Leave malformed lines out and count them, instead of stopping at the first. */
  skipMalformed?: boolean;
}

/**
 * What a decontamination pass did: lines kept, dropped and malformed, per test set how many
 * training lines it removed (and how many of them as a whole short text), and how long
 * indexing and scanning took.
 */
export interface DecontaminationReport {
  n: number;
  normalisation: string;
  /** How test instructions shorter than n words are matched. */
  short_rule: string;
  train: {
    lines: number;
    kept: number;
    dropped: number;
    /** Lines skipped as malformed (only with skipMalformed; else the run stops). */
    malformed: number;
  };
  test_sets: Record<
    string,
    {
      instructions: number;
      /** Test instructions shorter than n words: matched as whole texts. */
      shorter_than_n: number;
      malformed: number;
      train_dropped: number;
      /** Of train_dropped, those equal to a short test instruction as a whole. */
      train_dropped_whole_text: number;
      test_hit: number;
    }
  >;
  test_ngrams: number;
  seconds: { index: number; scan: number };
}

export const NORMALISATION =
  'NFKC, lower case, words = maximal runs of Unicode letters and digits (everything else separates)';

export const SHORT_RULE =
  'a test instruction shorter than n words matches a training instruction whose normalised words are exactly its words';

interface Line {
  line: number;
  text: string;
  value: unknown;
  instruction: string;
}

/**
 * Streams a JSONL file's lines that carry an instruction; a malformed one throws
 * JsonlLineError (file and line), or with `skip` is counted in `malformed` and passed over.
 */
async function* instructionLines(
  file: string,
  skip: boolean,
  malformed: { count: number },
): AsyncGenerator<Line> {
  for await (const e of streamJsonl(file, { badLines: 'collect' })) {
    let reason: string | null = null;
    let instruction: string | null = null;
    if (isBadLine(e)) reason = e.reason;
    else {
      instruction = instructionOf(e.value);
      if (instruction === null) reason = NO_INSTRUCTION;
    }
    if (reason !== null || instruction === null || e.text === null) {
      if (!skip) throw new JsonlLineError(file, e.line, reason ?? NO_INSTRUCTION);
      malformed.count++;
      continue;
    }
    yield { line: e.line, text: e.text, value: isBadLine(e) ? undefined : e.value, instruction };
  }
}

async function indexTests(
  files: string[],
  n: number,
  skip: boolean,
): Promise<{ index: TestNgramIndex; malformed: Map<string, number> }> {
  const index = new TestNgramIndex(n);
  const malformed = new Map<string, number>();
  for (const file of files) {
    const set = basename(file).replace(/\.jsonl?$/, '');
    const bad = { count: 0 };
    for await (const { line, value, instruction } of instructionLines(file, skip, bad)) {
      const id = (value as { id?: unknown }).id;
      index.add({ id: id === undefined ? `${set}:${line}` : String(id), set, text: instruction });
    }
    malformed.set(set, (malformed.get(set) ?? 0) + bad.count);
  }
  return { index, malformed };
}

function write(stream: WriteStream, text: string): Promise<void> | null {
  return stream.write(text) ? null : new Promise((r) => stream.once('drain', () => r()));
}

const close = (s: WriteStream) =>
  new Promise<void>((r, j) => s.end((e?: Error | null) => (e ? j(e) : r())));

/**
 * Drops from `o.train` every line whose instruction shares a word n-gram (default 13) with a
 * test instruction — or, for a test instruction shorter than n words, equals it as a whole —
 * streaming it to `o.out` (kept lines byte for byte) and `o.dropped`. A malformed line
 * rejects with JsonlLineError naming file and line, unless `skipMalformed` (then it is
 * left out and counted). Rejects when a file cannot be read or written.
 * @example
 * ```ts
 * const report = await decontaminateFiles({
 *   train: 'train.jsonl', tests: ['test.jsonl'], out: 'clean.jsonl', dropped: 'dropped.jsonl',
 * });
 * ```
 */
export async function decontaminateFiles(o: DecontaminateOptions): Promise<DecontaminationReport> {
  const n = o.n ?? DEFAULT_NGRAM;
  const skip = o.skipMalformed ?? false;
  const t0 = performance.now();
  const { index, malformed } = await indexTests(o.tests, n, skip);
  const t1 = performance.now();
  const sets: DecontaminationReport['test_sets'] = {};
  for (const [set, s] of index.perSet)
    sets[set] = {
      instructions: s.texts,
      shorter_than_n: s.tooShort,
      malformed: 0,
      train_dropped: 0,
      train_dropped_whole_text: 0,
      test_hit: 0,
    };
  for (const [set, count] of malformed) {
    sets[set] ??= {
      instructions: 0,
      shorter_than_n: 0,
      malformed: 0,
      train_dropped: 0,
      train_dropped_whole_text: 0,
      test_hit: 0,
    };
    sets[set].malformed = count;
  }
  const hitTests = new Set<string>();
  const partial = (path: string) => `${path}.partial`;
  const out = createWriteStream(partial(o.out));
  const dropped = o.dropped ? createWriteStream(partial(o.dropped)) : null;
  const counts = { lines: 0, kept: 0, dropped: 0, malformed: 0 };
  const bad = { count: 0 };
  try {
    for await (const { line, text: raw, value, instruction } of instructionLines(
      o.train,
      skip,
      bad,
    )) {
      counts.lines++;
      const hit: Overlap | null = index.match(instruction);
      if (!hit) {
        counts.kept++;
        await write(out, `${raw}\n`);
        continue;
      }
      counts.dropped++;
      const s = sets[hit.test_set]!;
      s.train_dropped++;
      if (hit.rule === 'whole_text') s.train_dropped_whole_text++;
      const key = `${hit.test_set}\u0000${hit.test_id}`;
      if (!hitTests.has(key)) {
        hitTests.add(key);
        s.test_hit++;
      }
      if (dropped) {
        const id = (value as { id?: unknown }).id ?? null;
        await write(dropped, `${JSON.stringify({ id, line, ...hit })}\n`);
      }
    }
  } catch (err) {
    await close(out).catch(() => {});
    if (dropped) await close(dropped).catch(() => {});
    rmSync(partial(o.out), { force: true });
    if (o.dropped) rmSync(partial(o.dropped), { force: true });
    throw err;
  }
  await close(out);
  if (dropped) await close(dropped);
  renameSync(partial(o.out), o.out);
  if (o.dropped) renameSync(partial(o.dropped), o.dropped);
  counts.malformed = bad.count;
  counts.lines += bad.count;
  const t2 = performance.now();
  return {
    n,
    normalisation: NORMALISATION,
    short_rule: SHORT_RULE,
    train: counts,
    test_sets: sets,
    test_ngrams: index.size,
    seconds: { index: (t1 - t0) / 1000, scan: (t2 - t1) / 1000 },
  };
}
