// `rubrica compare DIR_A DIR_B …`: the paper-style table of several eval runs and their
// per-prompt win / tie / loss. Thin: load the run directories, call eval/compare, print.
import { join } from 'node:path';
import { compareRuns, DEFAULT_TIE_EPSILON, formatComparison } from '../../eval/compare.ts';
import { loadRunDir, type RunDir } from '../../eval/stats/run-dir.ts';
import { inputDir, inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { numberFlag } from './align.ts';

interface CompareFlags {
  json?: boolean;
  reward?: string;
  tieEpsilon?: string;
  set?: string;
}

export const register: RegisterCommand = (program, setExit) => {
  program
    .command('compare')
    .description('compare eval runs: paper-style table and per-prompt win/tie/loss')
    .argument('<dirs...>', 'eval output directories (each with results.jsonl, summary.json)')
    .option('--json', 'print the comparison as JSON')
    .option('--reward <key>', 'reward to compare (default universal)')
    .option('--set <name>', 'compare one prompt set only (default: all, then each set)')
    .option(
      '--tie-epsilon <x>',
      `per-prompt mean rewards this close tie (default ${DEFAULT_TIE_EPSILON})`,
    )
    .action(async (dirs: string[], flags: CompareFlags) => {
      const tieEpsilon = numberFlag('--tie-epsilon', flags.tieEpsilon, 0);
      // Each folder and its results.jsonl checked before any is loaded (exit 2 if not there).
      for (const dir of dirs)
        inputFile('<dirs...>', join(inputDir('<dirs...>', dir), 'results.jsonl'));
      const runs: RunDir[] = [];
      for (const dir of dirs) {
        const loaded = await loadRunDir(dir);
        if ('code' in loaded) {
          process.stderr.write(`rubrica compare: ${loaded.code}: ${loaded.message}\n`);
          setExit(1);
        } else {
          runs.push(loaded);
          for (const i of loaded.issues) {
            process.stderr.write(`rubrica compare: ${i.file}:${i.line} ${i.code} ${i.message}\n`);
          }
        }
      }
      if (runs.length === 0) return;
      const comparison = compareRuns(runs, { reward: flags.reward, tieEpsilon, set: flags.set });
      process.stdout.write(
        `${flags.json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison)}\n`,
      );
    });
};
