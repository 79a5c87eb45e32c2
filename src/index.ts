// rubrica's library surface (`import … from 'rubrica'`): a deliberate list, grouped by room,
// of what a user scoring, serving or evaluating drawings calls. The CLI and the HTTP server
// are thin faces over these. Anything not listed is internal and may change without notice;
// docs/api.md shows each group in use. Lighter entry points load less: `rubrica/reward`
// (reward arithmetic, no native module), `rubrica/render`, `rubrica/server`.

// --- artifact: completion text → SVG code, reasoning, DwT stages, tokens ---------------
export { dwtReport, findDwtStages } from './artifact/dwt.ts';
export { extractArtifact, locateArtifact } from './artifact/extract.ts';
export { countTokens, countTokensDetailed, type TokenCount } from './artifact/tokens.ts';
export {
  type Artifact,
  type ArtifactSource,
  DWT_STAGES,
  type DwtReport,
  type DwtStage,
} from './artifact/types.ts';
// --- checks: deterministic criteria on code and pixels ----------------------------------
export { runChecks, summarizeChecks } from './checks/run-checks.ts';
export { DEFAULT_CHECK_OPTIONS, resolveCheckOptions } from './checks/thresholds.ts';
export type { CheckOptions, CheckResult } from './checks/types.ts';
// --- calibration: split-conformal reward intervals (rubrica align --calibrate) --------------
export {
  type Calibration,
  CalibrationError,
  CalibrationSchema,
  parseCalibration,
} from './core/calibration.ts';
export { DOMAIN_IDS, type DomainId, isDomainId } from './core/domain-ids.ts';
// --- core: errors, statuses, records, usage --------------------------------------------
export {
  type ArtifactErrorCode,
  type ErrorValue,
  isRubricaError,
  makeError,
  type RenderErrorCode,
  RubricaError,
} from './core/errors.ts';
export { groupKey } from './core/group-key.ts';
export { MissingDependencyError } from './core/optional-module.ts';
export type { ChecksSummary } from './core/record.ts';
export { addUsage, emptyUsage, type Usage } from './core/usage.ts';
export { VERSION } from './core/version.ts';
// --- prisma: PrismaForge synthesis, judges, curation, decontamination ----------------------
export {
  type Candidate,
  DEFAULT_GATE,
  type Decision,
  type GateConfig,
  type GateDeps,
  gateCandidate,
} from './curation/curate.ts';
export { type CurateDepsOptions, createCurateDeps } from './curation/curate-deps.ts';
export { type DecontaminationReport, decontaminateFiles } from './curation/decontaminate.ts';
export { normaliseWords, TestNgramIndex } from './curation/ngrams.ts';
// --- domains: python, latex, dot, vega-lite, html, mermaid beside SVG (docs/domains.md) ---
export { detectCompletionDomain, locateDomainCode } from './domains/extract.ts';
// The root entry hands out the lazy set: nothing of a domain loads until it renders.
export { lazyDomainRenderers as createDomainRenderers } from './domains/lazy.ts';
export type { DomainRenderers, DomainRenderersOptions } from './domains/renderers.ts';
export type { DomainErrorCode, DomainRender, DomainRenderer } from './domains/types.ts';
// --- eval: batch evaluation, comparison, human alignment, statistics -----------------------
export { type AlignOptions, type AlignReport, align, formatAlignReport } from './eval/align.ts';
export {
  type CompareOptions,
  type Comparison,
  compareRuns,
  formatComparison,
} from './eval/compare.ts';
export { type GenerateOptions, type GenerateSummary, generateRollouts } from './eval/generate.ts';
export { type EvalRunOptions, type EvalRunResult, runEval } from './eval/run.ts';
export type { PromptLine, RolloutLine } from './eval/run-inputs.ts';
export { bootstrapCI, type Interval } from './eval/stats/bootstrap.ts';
export { pearson, spearman } from './eval/stats/correlation.ts';
export { groupedGamma } from './eval/stats/gamma.ts';
export { kendallTauB } from './eval/stats/kendall.ts';
export { loadRunDir, type RunDir } from './eval/stats/run-dir.ts';
export {
  MIN_CI_PROMPTS,
  type RunSummary,
  type ScoreEstimate,
  summarizeRun,
} from './eval/summary.ts';
// --- pipeline: inspect a completion, score rollouts ---------------------------------------
export {
  type InspectCompletionOptions,
  inspectCompletion,
  inspectionToJson,
} from './inspect/inspect.ts';
export type { Inspection } from './inspect/types.ts';
// --- judge: a VLM grading a picture against a rubric ---------------------------------------
export type { JudgeRequest } from './judge/ask.ts';
export { createJudge, type Judge, type JudgeOptions, type JudgeVerdict } from './judge/judge.ts';
export {
  createPrismaJudge,
  type PrismaJudge,
  type PrismaJudgeOptions,
} from './judge/prisma-judges.ts';
// --- models: `provider:model` clients for author, judge and policy ------------------------
export { checkModel, formatModelCheck, type ModelCheck } from './models/check.ts';
export {
  createModelClient,
  type ModelClientOptions,
  type RubricaModelClient,
} from './models/client.ts';
export { ModelConfigError } from './models/errors.ts';
export { extractJson, stripThinking } from './models/extract-json.ts';
export { loadPrices, type PriceTable } from './models/prices.ts';
export { parseModelSpec, safeParseModelSpec } from './models/spec.ts';
export type { ModelSpec, Role } from './models/types.ts';
// --- monitors: reward health during training and eval ------------------------------------
export { type AlertThresholds, DEFAULT_ALERTS } from './monitors/alerts.ts';
export { type BatchHealth, batchHealth } from './monitors/health.ts';
export {
  createHealthMonitor,
  type HealthMonitor,
  type HealthMonitorOptions,
  type StepHealth,
} from './monitors/monitor.ts';
export {
  createRolloutScorer,
  type RolloutScorerOptions,
  ScorerConfigError,
} from './pipeline/score.ts';
export type {
  InspectingScorer,
  JudgeMode,
  RolloutScorer,
  ScoreBatchOptions,
  ScoredRollout,
} from './pipeline/types.ts';
// --- probe: judge health before training -------------------------------------------------
export { renderHealthCard } from './probe/card.ts';
export { type ProbeOptions, runProbe } from './probe/run.ts';
export type { ProbeReport } from './probe/types.ts';
export { writeProbeOutputs } from './probe/write.ts';
// --- render: SVG → PNG in isolated workers, safely --------------------------------------
export {
  closeSharedRenderPool,
  configureSharedRenderPool,
  createRenderPool,
  DEFAULT_RENDER_BACKGROUND,
  DEFAULT_RENDER_SIZE,
  type RendererName,
  type RenderOptions,
  type RenderPool,
  type RenderPoolOptions,
  type RenderResult,
  renderFiles,
  renderSvg,
  type SanitizeResult,
  sanitizeSvg,
} from './render/index.ts';
// --- reward: the criterion tree, reward kinds, statuses, records, GRPO statistics ----------
// The same list as `rubrica/reward` (src/reward/index.ts).
export * from './reward/index.ts';
// --- rubric: presets, instance rubric synthesis, loading ----------------------------------
export { indexRubrics, parseRubricsJsonl, type RubricIndex } from './rubric/load.ts';
export { getPreset, isPresetName, PRESETS, type PresetName } from './rubric/presets.ts';
export { indexPrismaRubrics, parsePrismaRubrics } from './rubric/prisma-load.ts';
export {
  type RubricItem,
  type RubricRecord,
  RubricRecordSchema,
} from './rubric/schema.ts';
export {
  loadSharedCriteria,
  type SharedCriteria,
  SharedCriteriaError,
} from './rubric/shared-criteria.ts';
export { universalItems } from './rubric/universal.ts';
// --- scorers: CLIP, LAION aesthetic, HTTP image scorers (for the hybrid reward) -----------
export { loadAestheticHead } from './scorers/aesthetic-head.ts';
export {
  ClipLoadError,
  type ClipModel,
  type ClipModelOptions,
  loadClipModel,
} from './scorers/clip-model.ts';
export { createClipSemanticScorer, createLaionAestheticScorer } from './scorers/clip-scorers.ts';
export { createHttpScorer, type HttpScorerOptions } from './scorers/http-scorer.ts';
export type { ImageScorer, ScorerResult } from './scorers/types.ts';
// --- server: the reward service for RL trainers (also `rubrica/server`) -------------------
export { createServer, type ServerOptions } from './server/app.ts';
export { type RunningServer, type StartOptions, startServer } from './server/start.ts';
export { type OpenRlhfResult, toOpenRlhfResult, toVerlResults } from './server/trainer-shapes.ts';
// --- store: the answer cache and resumable JSONL runs --------------------------------------
export { type AnswerCache, DEFAULT_CACHE_PATH, openCache } from './store/cache.ts';
export { CacheError } from './store/cache-error.ts';
export { RunInterruptedError, readJsonlInputs } from './store/jsonl.ts';
export {
  createPrismaSynthesizer,
  type PrismaPromptInput,
  type PrismaSynthOptions,
} from './synth/prisma.ts';
export {
  createRubricSynthesizer,
  DEFAULT_MIN_IDEAL,
  type PromptInput,
  type RubricSynthesizer,
  type SynthOptions,
} from './synth/ruler.ts';
