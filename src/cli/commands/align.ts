// `rubrica align`: how well judges agree with people. One or more judges (`--pred name=file`,
// scores or pairwise choices, JSONL or CSV) against one human file; prints a table (text,
// JSON) and can write an HTML view. Thin: read files, call eval/align-table, print.
import { statSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderAlignHtml } from '../../eval/align-html.ts';
import { judgesFromText, mergeJudges, parsePredSpec } from '../../eval/align-load.ts';
import {
  alignJudges,
  COUNT_MODES,
  type CountMode,
  DEFAULT_MIN_DECIDED,
  type JudgeInput,
  TIE_POLICIES,
  type TiePolicy,
} from '../../eval/align-table.ts';
import { formatAlignTable } from '../../eval/align-table-text.ts';
import { parseHuman } from '../../eval/stats/align-input.ts';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../eval/stats/bootstrap.ts';
import {
  CANONICAL_COLUMNS,
  type CanonicalColumn,
  type ColumnMap,
  formatOf,
  type TableFormat,
} from '../../eval/stats/table-input.ts';
import { type CalibrateFlags, checkCalibrateFlags, writeCalibration } from '../align-calibrate.ts';
import { writePanelWeights } from '../align-weights.ts';
import { inputFile, inputFileOrDir } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

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

interface AlignFlags extends CalibrateFlags {
  fitWeights?: string;
  pred: string[];
  human: string;
  json?: boolean;
  html?: string;
  resamples?: string;
  seed?: string;
  reward?: string;
  tieEpsilon?: string;
  ties: string;
  count: string;
  minDecided?: string;
  col?: string[];
  format?: string;
}

/** `--col winner=choice a=left …` → a column map; unknown keys are a usage error. */
export function columnMap(specs: readonly string[] = []): ColumnMap {
  const map: ColumnMap = {};
  for (const spec of specs.flatMap((s) => s.split(','))) {
    const [key, col] = spec.split('=', 2).map((x) => x.trim());
    if (!key || !col || !CANONICAL_COLUMNS.includes(key as CanonicalColumn))
      throw new UsageError(
        `--col takes KEY=COLUMN with KEY one of ${CANONICAL_COLUMNS.join(', ')}; got "${spec}"`,
      );
    map[key as CanonicalColumn] = col;
  }
  return map;
}

/** Reads a file; an eval output directory stands for its results.jsonl. */
async function readOrReport(
  path: string,
  setExit: (code: number) => void,
): Promise<{ text: string; file: string } | null> {
  try {
    const isDir = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const file = isDir ? join(path, 'results.jsonl') : path;
    return { text: await readFile(file, 'utf8'), file };
  } catch (err) {
    process.stderr.write(`rubrica align: cannot read ${path}: ${(err as Error).message}\n`);
    setExit(1);
    return null;
  }
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export const register: RegisterCommand = (program, setExit) => {
  program
    .command('align')
    .description('agreement of judges (scores or pairwise choices) with human ratings or votes')
    .requiredOption(
      '--pred <name=file>',
      'a judge: score lines, results.jsonl (or its eval DIR), {id, score} or {a, b, winner} choices; JSONL or CSV; repeat for several judges (the same NAME twice merges files)',
      collect,
    )
    .requiredOption(
      '--human <file>',
      'human {id, group, score[, rater]} ratings and/or {group, a, b, winner[, rater]} votes; JSONL or CSV',
    )
    .option(
      '--col <key=column>',
      `column mapping, KEY one of ${CANONICAL_COLUMNS.join(', ')} (repeatable)`,
      collect,
    )
    .option('--format <f>', 'jsonl | csv | tsv (default: from the file extension)')
    .option(
      '--ties <policy>',
      `a judge's tie on a vote people decided: ${TIE_POLICIES.join(' | ')}`,
      'exclude',
    )
    .option(
      '--count <mode>',
      "a choice judge's votes against people's: pairs (merged per pair, a split is a tie) | votes (one judge vote per human vote)",
      'pairs',
    )
    .option(
      '--min-decided <n>',
      `flag agreements counted on fewer votes (default ${DEFAULT_MIN_DECIDED})`,
    )
    .option('--json', 'print the table as JSON')
    .option('--html <file>', 'also write the table as an HTML page')
    .option('--resamples <n>', `bootstrap resamples (default ${DEFAULT_RESAMPLES})`)
    .option('--seed <s>', `bootstrap seed (default ${DEFAULT_SEED})`)
    .option('--reward <key>', 'reward taken from eval records (default universal)')
    .option('--tie-epsilon <x>', 'predicted scores this close count as a predicted tie (default 0)')
    .option(
      '--calibrate <file>',
      "also fit a split-conformal calibration of the (one) --pred judge's reward intervals to --human's ratings and write it here (use it with score/serve/eval --calibration)",
    )
    .option(
      '--level <x>',
      '--calibrate: coverage the calibrated intervals aim at, in (0,1) (default 0.9)',
    )
    .option(
      '--confidence <p>',
      '--calibrate: probability the fitted calibration covers --level of new ratings (training-conditional; default 0.95); 0: marginal (≥ level on average)',
    )
    .option(
      '--fit-weights <file>',
      "also fit panel weights (≥ 0, summing to 1) for the --pred judges from --human's pairwise votes and write them here (score --panel-weights FILE); name each --pred by its --judge spec",
    )
    .option(
      '--rating-scale <s>',
      '--calibrate: how ratings map to [0,1]: unit (0–1) | percent (0–100, the studio) | bands (1–5) | auto (by the largest rating)',
      'auto',
    )
    .action(async (flags: AlignFlags) => {
      const calLevel = checkCalibrateFlags(flags, flags.pred.length);
      if (!TIE_POLICIES.includes(flags.ties as TiePolicy))
        throw new UsageError(
          `--ties must be one of ${TIE_POLICIES.join(', ')}; got "${flags.ties}"`,
        );
      if (!COUNT_MODES.includes(flags.count as CountMode))
        throw new UsageError(
          `--count must be one of ${COUNT_MODES.join(', ')}; got "${flags.count}"`,
        );
      if (flags.format !== undefined && !['jsonl', 'csv', 'tsv'].includes(flags.format))
        throw new UsageError(`--format must be jsonl, csv or tsv; got "${flags.format}"`);
      const columns = columnMap(flags.col);
      const opts = {
        resamples: intFlag('--resamples', flags.resamples, 1),
        seed: intFlag('--seed', flags.seed, 0),
        reward: flags.reward,
        tieEpsilon: numberFlag('--tie-epsilon', flags.tieEpsilon, 0),
        minDecided: intFlag('--min-decided', flags.minDecided, 1),
        ties: flags.ties as TiePolicy,
        count: flags.count as CountMode,
      };
      const specs = flags.pred.map(parsePredSpec);
      // Every input checked before any is read: a missing one is a usage error (exit 2).
      inputFile('--human', flags.human);
      for (const s of specs) {
        const dir = inputFileOrDir('--pred', s.path);
        if (statSync(dir).isDirectory()) inputFile('--pred', join(dir, 'results.jsonl'));
      }
      const human = await readOrReport(flags.human, setExit);
      const judges: JudgeInput[] = [];
      let firstPred: { text: string; file: string } | null = null;
      for (const s of specs) {
        const read = await readOrReport(s.path, setExit);
        if (read === null) return;
        firstPred ??= read;
        const format = (flags.format as TableFormat | undefined) ?? formatOf(read.file);
        judges.push(
          ...judgesFromText(s.name, read.text, {
            file: read.file,
            format,
            columns,
            reward: flags.reward,
          }),
        );
      }
      if (human === null) return;
      const parsed = parseHuman(human.text, human.file, {
        format: (flags.format as TableFormat | undefined) ?? formatOf(human.file),
        columns,
      });
      if (flags.calibrate !== undefined && firstPred)
        await writeCalibration(
          { ...flags, calibrate: flags.calibrate },
          calLevel,
          firstPred,
          parsed.absolute,
          human.file,
          setExit,
        );
      if (flags.fitWeights !== undefined)
        await writePanelWeights(
          flags.fitWeights,
          mergeJudges(judges),
          parsed.pairwise,
          human.file,
          setExit,
        );
      const table = alignJudges(mergeJudges(judges), parsed, opts);
      process.stdout.write(
        `${flags.json ? JSON.stringify(table, null, 2) : formatAlignTable(table)}\n`,
      );
      if (flags.html) await writeFile(flags.html, renderAlignHtml(table));
      const matched = table.judges.some(
        (j) => (j.absolute?.items ?? 0) > 0 || (j.pairwise?.votes ?? 0) > 0,
      );
      if (!matched) {
        process.stderr.write('rubrica align: no human judgement matched a prediction\n');
        setExit(1);
      }
    });
};
