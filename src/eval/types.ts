// One line of an eval run's results.jsonl: a rollout with every reward that scored it.

import type { DomainId } from '../core/domain-ids.ts';
import type { ScoreRecord } from '../core/record.ts';

export interface EvalRecord {
  id: string;
  prompt_id: string;
  prompt: string;
  /** Which run (model / checkpoint) produced the rollout. */
  run: string;
  /** Keyed by reward: "universal" always; "ruler" (instance rubrics), "rubric-s", "hybrid" when asked. */
  scores: Record<string, ScoreRecord>;
  /** Path of the rendered PNG relative to the run directory, when it rendered. */
  image?: string;
  /** The completion's text, kept for SFT export and the report. */
  completion?: string;
  /** The domain it was inspected in, when not SVG (the report shows its code by the picture). */
  domain?: DomainId;
}
