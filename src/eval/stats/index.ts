// Statistics for evaluation and human alignment: correlations, γ within groups, bootstrap CIs,
// and the readers behind `align` / `compare`. Text-formatting and JSONL helpers stay internal
// (import them from their files inside the eval room).

export {
  type AbsoluteRating,
  DEFAULT_ALIGN_REWARD,
  type HumanJudgements,
  type PairwiseVote,
  type Predictions,
  parseHuman,
  parsePredictions,
} from './align-input.ts';
export {
  type BootstrapOptions,
  bootstrapCI,
  bootstrapOptions,
  DEFAULT_LEVEL,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type Interval,
} from './bootstrap.ts';
export { pearson, spearman } from './correlation.ts';
export {
  type DistributionSummary,
  describe as describeDistribution,
  type HistogramBin,
  TOKEN_BIN_EDGES,
} from './distribution.ts';
export { type GammaResult, type GroupScores, groupedGamma } from './gamma.ts';
export type { LineIssue, LineIssueCode } from './jsonl.ts';
export { kendallTauB, type PairCounts, pairCounts } from './kendall.ts';
export { seededRandom } from './prng.ts';
export { loadRunDir, type RunDir, type RunDirError } from './run-dir.ts';
