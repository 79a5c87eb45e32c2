// `rubrica align --fit-weights FILE`: fits panel weights (src/eval/panel-weights.ts) for the
// --pred judges from --human's pairwise votes, writes them as JSON for `score --panel-weights
// FILE`, and says on stderr what they are and how much better they predict the votes than
// equal weights. `--panel-weights FILE` reading lives here too: one format, one place.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { JudgeInput } from '../eval/align-table.ts';
import {
  fitPanelWeights,
  PANEL_WEIGHTS_KIND,
  PanelWeightsError,
  type PanelWeightsFile,
} from '../eval/panel-weights.ts';
import type { PairwiseVote } from '../eval/stats/align-input.ts';
import { readInputText } from './input-file.ts';
import { UsageError } from './usage-error.ts';

export async function writePanelWeights(
  out: string,
  judges: readonly JudgeInput[],
  votes: readonly PairwiseVote[],
  humanFile: string,
  setExit: (code: number) => void,
): Promise<void> {
  try {
    const fit = fitPanelWeights(judges, votes, { sources: { votes: humanFile } });
    await writeFile(out, `${JSON.stringify(fit, null, 2)}\n`);
    const ws = fit.judges.map((j, i) => `${j} ${fit.weights[i]!.toFixed(3)}`).join(', ');
    process.stderr.write(
      `panel weights (${fit.votes} votes, ${fit.skipped} left out): ${ws}; log loss ${fit.log_loss.toFixed(4)} (equal weights ${fit.log_loss_equal.toFixed(4)}) → ${out}\n`,
    );
  } catch (err) {
    if (!(err instanceof PanelWeightsError)) throw err;
    process.stderr.write(`rubrica align: ${err.code}: ${err.message}\n`);
    setExit(1);
  }
}

/**
 * `--panel-weights` → one weight per --judge, in order: a comma list (`2,1,1`), or a file
 * written by `align --fit-weights` whose judge names are the --judge specs (any order).
 * Weights are ≥ 0 with a positive sum.
 */
export function parsePanelWeights(raw: string, judges: readonly string[]): number[] {
  if (!/^[\d.,\s]+$/.test(raw) || existsSync(raw)) return weightsFromFile(raw, judges);
  const ws = raw.split(',').map(Number);
  if (ws.some((w) => !(w >= 0) || !Number.isFinite(w)) || !ws.some((w) => w > 0))
    throw new UsageError(`--panel-weights must be numbers ≥ 0 (one positive), got "${raw}"`);
  return ws;
}

function weightsFromFile(path: string, judges: readonly string[]): number[] {
  let f: PanelWeightsFile;
  try {
    f = JSON.parse(readInputText('--panel-weights', path)) as PanelWeightsFile;
  } catch (err) {
    if (err instanceof UsageError) throw err; // not a regular file, or too large
    throw new UsageError(`--panel-weights: cannot read ${path}: ${(err as Error).message}`);
  }
  if (f?.kind !== PANEL_WEIGHTS_KIND || !Array.isArray(f.judges) || !Array.isArray(f.weights))
    throw new UsageError(`--panel-weights: ${path} is not a ${PANEL_WEIGHTS_KIND} file`);
  const by = new Map(f.judges.map((j, i) => [j, f.weights[i]]));
  return judges.map((j) => {
    const w = by.get(j);
    if (typeof w !== 'number' || !(w >= 0))
      throw new UsageError(
        `--panel-weights: ${path} has no weight for judge ${j} (it names ${f.judges.join(', ')}; name each --pred by its --judge spec)`,
      );
    return w;
  });
}
