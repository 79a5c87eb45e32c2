// Statistics for evaluation and human alignment: correlations, γ within groups, bootstrap CIs.

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
  type Interval,
} from './bootstrap.ts';
export { isConstant, pearson, spearman } from './correlation.ts';
export {
  type DistributionSummary,
  describe,
  type HistogramBin,
  histogram,
  TOKEN_BIN_EDGES,
} from './distribution.ts';
export { type GammaResult, type GroupScores, groupedGamma } from './gamma.ts';
export {
  type JsonLine,
  type LineIssue,
  type LineIssueCode,
  readJsonLines,
  zodMessage,
} from './jsonl.ts';
export { kendallTauB, type PairCounts, pairCounts } from './kendall.ts';
export { seededRandom } from './prng.ts';
export { loadRunDir, type RunDir, type RunDirError } from './run-dir.ts';
export { type Align, fmt, fmtInterval, formatTable, pct } from './text-table.ts';
