// Decontamination of a training set against test sets (PrismaForge A.3): a training sample
// whose instruction shares a word n-gram (default 13) with any test instruction is dropped.
// Linear in input size: the test n-grams are hashed once into an index (ngrams.ts), then the
// training file is streamed line by line, each line written through unchanged (kept) or to
// the dropped file with the test instruction and the n-gram that matched.
import { createWriteStream, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { jsonLines } from './json-lines.ts';
import { type Overlap, TestNgramIndex } from './ngrams.ts';

export const DEFAULT_NGRAM = 13;

/** The instruction of a line: `instruction`, else `prompt`, else `text`. */
export function instructionOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  const t = o.instruction ?? o.prompt ?? o.text;
  return typeof t === 'string' ? t : null;
}

export interface DecontaminateOptions {
  train: string;
  /** Test files; each file is one test set, named by its file name. */
  tests: string[];
  /** Kept training lines, byte for byte. */
  out: string;
  /** Dropped training lines: {id, line, test_id, test_set, ngram}. */
  dropped?: string;
  n?: number;
}

/**
 * What a decontamination pass did: lines kept and dropped, per test set how many training
 * lines it removed, and how long indexing and scanning took.
 */
export interface DecontaminationReport {
  n: number;
  normalisation: string;
  train: { lines: number; kept: number; dropped: number; unreadable: number };
  test_sets: Record<
    string,
    { instructions: number; shorter_than_n: number; train_dropped: number; test_hit: number }
  >;
  test_ngrams: number;
  seconds: { index: number; scan: number };
}

export const NORMALISATION =
  'NFKC, lower case, words = maximal runs of Unicode letters and digits (everything else separates)';

async function indexTests(files: string[], n: number): Promise<TestNgramIndex> {
  const index = new TestNgramIndex(n);
  for (const file of files) {
    const set = basename(file).replace(/\.jsonl?$/, '');
    for await (const { line, value } of jsonLines(file)) {
      const text = instructionOf(value);
      if (text === null) continue;
      const id = (value as { id?: unknown }).id;
      index.add({ id: id === undefined ? `${set}:${line}` : String(id), set, text });
    }
  }
  return index;
}

function write(stream: WriteStream, text: string): Promise<void> | null {
  return stream.write(text) ? null : new Promise((r) => stream.once('drain', () => r()));
}

const close = (s: WriteStream) =>
  new Promise<void>((r, j) => s.end((e?: Error | null) => (e ? j(e) : r())));

/**
 * Drops from `o.train` every line whose instruction shares a word n-gram (default 13) with a
 * test instruction, streaming it to `o.out` (kept lines byte for byte) and `o.dropped`.
 * Unreadable lines are kept: only a shown overlap removes a sample. Rejects when a file cannot
 * be read or written.
 * @example
 * ```ts
 * const report = await decontaminateFiles({
 *   train: 'train.jsonl', tests: ['test.jsonl'], out: 'clean.jsonl', dropped: 'dropped.jsonl',
 * });
 * ```
 */
export async function decontaminateFiles(o: DecontaminateOptions): Promise<DecontaminationReport> {
  const n = o.n ?? DEFAULT_NGRAM;
  const t0 = performance.now();
  const index = await indexTests(o.tests, n);
  const t1 = performance.now();
  const sets: DecontaminationReport['test_sets'] = {};
  for (const [set, s] of index.perSet)
    sets[set] = {
      instructions: s.texts,
      shorter_than_n: s.tooShort,
      train_dropped: 0,
      test_hit: 0,
    };
  const hitTests = new Set<string>();
  const out = createWriteStream(o.out);
  const dropped = o.dropped ? createWriteStream(o.dropped) : null;
  const counts = { lines: 0, kept: 0, dropped: 0, unreadable: 0 };
  for await (const { line, text: raw, value } of jsonLines(o.train)) {
    counts.lines++;
    const text = instructionOf(value);
    if (text === null) {
      // Unreadable lines are kept: decontamination removes only what it can show is leaked.
      counts.unreadable++;
      counts.kept++;
      await write(out, `${raw}\n`);
      continue;
    }
    const hit: Overlap | null = index.match(text);
    if (!hit) {
      counts.kept++;
      await write(out, `${raw}\n`);
      continue;
    }
    counts.dropped++;
    sets[hit.test_set]!.train_dropped++;
    const key = `${hit.test_set}\u0000${hit.test_id}`;
    if (!hitTests.has(key)) {
      hitTests.add(key);
      sets[hit.test_set]!.test_hit++;
    }
    if (dropped) {
      const id = (value as { id?: unknown }).id ?? null;
      await write(dropped, `${JSON.stringify({ id, line, ...hit })}\n`);
    }
  }
  await close(out);
  if (dropped) await close(dropped);
  const t2 = performance.now();
  return {
    n,
    normalisation: NORMALISATION,
    train: counts,
    test_sets: sets,
    test_ngrams: index.size,
    seconds: { index: (t1 - t0) / 1000, scan: (t2 - t1) / 1000 },
  };
}
