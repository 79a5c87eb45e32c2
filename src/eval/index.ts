// Public surface of the eval room.

export * from './align.ts';
export * from './compare.ts';
export {
  DEFAULT_POLICY_SYSTEM,
  type GeneratedLine,
  type GenerateOptions,
  type GenerateSummary,
  generateRollouts,
} from './generate.ts';
export { type HeadlineMetric, type ReportInput, renderReport } from './report/report.ts';
export { loadThumbnails } from './report/thumbnails.ts';
export { type EvalRunOptions, type EvalRunResult, type EvalSummaryFile, runEval } from './run.ts';
export {
  type PromptLine as EvalPromptLine,
  type RolloutLine as EvalRolloutLine,
  readPromptsFile,
  readRolloutsFile,
} from './run-inputs.ts';
export { type JudgeProbe, judgeStartHints, probeJudge } from './run-judge.ts';
export * from './stats/index.ts';
export * from './summary.ts';
