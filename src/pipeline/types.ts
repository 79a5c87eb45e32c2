// Contracts of the per-rollout pipeline: completion → artifact → render → checks
// (inspection), then rewards computed from that one inspection. The CLI, the HTTP server and
// eval runs all call these; none of them knows how a score is made.
import type { Artifact } from '../artifact/types.ts';
import type { CheckResult } from '../checks/types.ts';
import type { ChecksSummary, RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import type { DomainRenderers } from '../domains/renderers.ts';
import type { DomainId } from '../domains/types.ts';
import type { Renderer, RenderOptions, RenderResult } from '../render/types.ts';

export type { RewardKind, RolloutInput } from '../core/record.ts';

export interface Inspection {
  artifact: Artifact;
  /** null when there was no SVG to render. */
  render: RenderResult | null;
  checks: CheckResult[];
  summary: ChecksSummary;
}

export interface InspectOptions {
  prompt?: string;
  renderer: Renderer;
  render?: RenderOptions;
  /**
   * The completion's domain (docs/domains.md). Default 'auto': the fences decide, and an
   * answer with an SVG stays svg, as before domains existed.
   */
  domain?: DomainId | 'auto';
  /** Warm renderers for the other domains (without them, each call starts its own). */
  domains?: DomainRenderers;
}

export type JudgeMode = 'joint' | 'per-item';

export interface ScoreBatchOptions {
  /** One reward or several (computed from one inspection; the first is the record's `reward`). */
  reward?: RewardKind | readonly RewardKind[];
  mode?: JudgeMode;
  signal?: AbortSignal;
}

export interface ScoredRollout {
  record: ScoreRecord;
  /** The one inspection every requested reward was computed from (PNG included). */
  inspection: Inspection | null;
}

/** Scores rollouts; every input gets exactly one record, in input order. */
export interface RolloutScorer {
  scoreBatch(items: RolloutInput[], opts?: ScoreBatchOptions): Promise<ScoreRecord[]>;
  close(): Promise<void>;
}

/** The pipeline's scorer: also hands back the inspection each record was computed from. */
export interface InspectingScorer extends RolloutScorer {
  scoreRollout(item: RolloutInput, opts?: ScoreBatchOptions): Promise<ScoredRollout>;
}
