// `rubrica decontaminate`: drop training samples whose instruction shares a word n-gram with
// a test instruction, or equals a short one (src/curation/decontaminate.ts), and say what
// was dropped and why. A malformed line stops the run naming file and line (exit 1) unless
// --skip-malformed, which leaves it out and counts it.
import { writeFileSync } from 'node:fs';
import { DEFAULT_NGRAM, decontaminateFiles } from '../../curation/decontaminate.ts';
import { parseCount } from '../flags.ts';
import { inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';

interface Flags {
  train: string;
  test: string[];
  out: string;
  dropped?: string;
  report?: string;
  n?: string;
  skipMalformed?: boolean;
}

async function run(f: Flags): Promise<void> {
  const n = parseCount('--n', f.n, DEFAULT_NGRAM);
  inputFile('--train', f.train);
  for (const file of f.test) inputFile('--test', file);
  const r = await decontaminateFiles({
    train: f.train,
    tests: f.test,
    out: f.out,
    dropped: f.dropped,
    n,
    skipMalformed: f.skipMalformed,
  });
  if (f.report) writeFileSync(f.report, `${JSON.stringify(r, null, 2)}\n`);
  const sets = Object.entries(r.test_sets).map(
    ([k, s]) =>
      `  ${k}: ${s.train_dropped} training samples dropped (${s.train_dropped_whole_text} as a whole short text), ${s.test_hit} of ${s.instructions} test instructions overlapped (${s.shorter_than_n} shorter than ${n} words, matched as whole texts)` +
      (s.malformed ? `; ${s.malformed} malformed lines skipped` : ''),
  );
  const lines = [
    `decontaminated ${r.train.lines} training samples against ${r.test_ngrams} test ${n}-grams: ${r.train.kept} kept, ${r.train.dropped} dropped` +
      (r.train.malformed ? ` (${r.train.malformed} malformed lines skipped)` : ''),
    ...sets,
    `${(r.seconds.index + r.seconds.scan).toFixed(1)} s (index ${r.seconds.index.toFixed(1)} s, scan ${r.seconds.scan.toFixed(1)} s)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export const register: RegisterCommand = (program) => {
  program
    .command('decontaminate')
    .description('drop training instructions sharing a word n-gram with a test instruction')
    .requiredOption(
      '--train <file>',
      'training JSONL: lines with "instruction" (or "prompt", "text"), or chat "messages" (user turns)',
    )
    .requiredOption('--test <file...>', 'test JSONL file(s), one test set each')
    .requiredOption('--out <file>', 'kept training lines (unchanged)')
    .option('--dropped <file>', 'dropped lines: {id, line, test_id, test_set, ngram, rule}')
    .option('--report <file>', 'report as JSON (counts per test set, timings)')
    .option('--n <n>', `n-gram length in words (default ${DEFAULT_NGRAM})`)
    .option(
      '--skip-malformed',
      'leave out and count lines that are not JSON or carry no instruction (default: stop, exit 1)',
    )
    .action((f: Flags) => run(f));
};
