// Contracts of the per-rollout pipeline: completion → artifact → render → checks
// (inspection), then judge/scorers → reward (scoring). The CLI, the HTTP server and
// eval runs all call these; none of them knows how a score is made.
import type { Artifact } from '../artifact/types.ts';
import type { CheckResult } from '../checks/types.ts';
import type { ChecksSummary, ScoreRecord } from '../core/record.ts';
import type { Renderer, RenderOptions, RenderResult } from '../render/types.ts';

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
}

export type RewardKind = 'ruler' | 'universal' | 'rubric-s' | 'hybrid';
export type JudgeMode = 'joint' | 'per-item';

export interface RolloutInput {
  id: string;
  prompt_id?: string | null;
  prompt?: string | null;
  completion: string;
}

export interface ScoreBatchOptions {
  reward?: RewardKind;
  mode?: JudgeMode;
  signal?: AbortSignal;
}

/** Scores a batch of rollouts; every input gets exactly one record, in input order. */
export interface RolloutScorer {
  scoreBatch(items: RolloutInput[], opts?: ScoreBatchOptions): Promise<ScoreRecord[]>;
  close(): Promise<void>;
}
