// `rubrica align`: how well predicted scores agree with people (ρ, r, τ-b, γ within groups,
// pairwise agreement), each with a bootstrap CI. Thin: read files, call eval/align, print.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { align, formatAlignReport } from '../../eval/align.ts';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../eval/stats/bootstrap.ts';
import { UsageError } from '../usage-error.ts';
import type { RegisterCommand } from './index.ts';

export function intFlag(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export function numberFlag(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return n;
}

interface AlignFlags {
  pred: string;
  human: string;
  json?: boolean;
  resamples?: string;
  seed?: string;
  reward?: string;
  tieEpsilon?: string;
}

/** Reads a JSONL file; an eval output directory stands for its results.jsonl. */
async function readOrReport(path: string, setExit: (code: number) => void): Promise<string | null> {
  try {
    const isDir = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return await readFile(isDir ? join(path, 'results.jsonl') : path, 'utf8');
  } catch (err) {
    process.stderr.write(`rubrica align: cannot read ${path}: ${(err as Error).message}\n`);
    setExit(1);
    return null;
  }
}

export const register: RegisterCommand = (program, setExit) => {
  program
    .command('align')
    .description('agreement of predicted scores with human ratings or pairwise votes')
    .requiredOption(
      '--pred <file>',
      'predictions: rubrica score lines, results.jsonl (or its eval DIR), or {id, score}',
    )
    .requiredOption(
      '--human <file>',
      'human {id, group, score} ratings and/or {group, a, b, winner} votes',
    )
    .option('--json', 'print the report as JSON')
    .option('--resamples <n>', `bootstrap resamples (default ${DEFAULT_RESAMPLES})`)
    .option('--seed <s>', `bootstrap seed (default ${DEFAULT_SEED})`)
    .option('--reward <key>', 'reward taken from eval records (default universal)')
    .option('--tie-epsilon <x>', 'predicted scores this close count as a predicted tie (default 0)')
    .action(async (flags: AlignFlags) => {
      const opts = {
        resamples: intFlag('--resamples', flags.resamples, 1),
        seed: intFlag('--seed', flags.seed, 0),
        reward: flags.reward,
        tieEpsilon: numberFlag('--tie-epsilon', flags.tieEpsilon, 0),
      };
      const pred = await readOrReport(flags.pred, setExit);
      const human = await readOrReport(flags.human, setExit);
      if (pred === null || human === null) return;
      const report = align(pred, human, opts);
      process.stdout.write(
        `${flags.json ? JSON.stringify(report, null, 2) : formatAlignReport(report)}\n`,
      );
      const matched = (report.absolute?.items ?? 0) + (report.pairwise?.votes ?? 0);
      if (matched === 0) {
        process.stderr.write('rubrica align: no human judgement matched a prediction\n');
        setExit(1);
      }
    });
};
