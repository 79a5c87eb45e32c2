// Contracts of the scoring pipeline: rewards computed from one inspection per rollout
// (src/inspect/types.ts). The CLI, the HTTP server and eval runs all call these; none of
// them knows how a score is made.
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import type { Inspection } from '../inspect/types.ts';
import type { JudgingMode, PairsMode } from '../judge/pairwise.ts';
import type { GroupOrders } from '../judge/strategy.ts';
import type { RubricItem } from '../rubric/schema.ts';

export type { RewardKind, RolloutInput } from '../core/record.ts';

/** `joint`: the judge scores all of a rubric's items in one call; `per-item`: one call each. */
export type JudgeMode = 'joint' | 'per-item';

/** Per call: which rewards (the first is the record's `reward`), the judge mode, a signal. */
export interface ScoreBatchOptions {
  /** One reward or several (computed from one inspection; the first is the record's `reward`). */
  reward?: RewardKind | readonly RewardKind[];
  mode?: JudgeMode;
  /** `absolute` (default): each rollout alone; `pairwise`: against its group (pipeline/relative.ts). */
  judging?: JudgingMode;
  /** Which pairs of a group `pairwise` compares (default `circular`). */
  pairs?: PairsMode;
  /** Which orders `group` shows each chunk in (default `mirror`). */
  groupOrders?: GroupOrders;
  /** This call's gated checks (`CHECK[,CHECK…]`, a list, or `none`); default the scorer's. */
  gate?: string | readonly string[];
  signal?: AbortSignal;
  /**
   * scoreBatch: called with each rollout's inspection once it is rendered and checked, before
   * any relative judging (eval keeps the picture of a group judged as one batch).
   */
  onInspected?: (item: RolloutInput, inspection: Inspection) => void;
}

/** A score record and the inspection it was computed from. */
export interface ScoredRollout {
  record: ScoreRecord;
  /** The one inspection every requested reward was computed from (PNG included). */
  inspection: Inspection | null;
  /** What a relative judge reads with the picture: prompt, criteria, data hash (null: none found). */
  judgeContext?: {
    prompt: string;
    criteria: string;
    assets: string | null;
    /** The rubric's items, or the default criteria as one item (group judging scores these). */
    items?: readonly RubricItem[];
  } | null;
}

/** Scores rollouts; every input gets exactly one record, in input order. */
export interface RolloutScorer {
  scoreBatch(items: RolloutInput[], opts?: ScoreBatchOptions): Promise<ScoreRecord[]>;
  /**
   * How a batch with these options is judged (the scorer's default when they name none):
   * a deadline scores a relatively judged GRPO group as one unit (pipeline/deadline.ts).
   */
  judgingFor?(opts?: ScoreBatchOptions): JudgingMode;
  close(): Promise<void>;
}

/** The pipeline's scorer: also hands back the inspection each record was computed from. */
export interface InspectingScorer extends RolloutScorer {
  scoreRollout(item: RolloutInput, opts?: ScoreBatchOptions): Promise<ScoredRollout>;
  judgingFor(opts?: ScoreBatchOptions): JudgingMode;
}
