// One idea carries all three papers: a reward is a weighted set of criteria, each scored
// in [0,1] by a check (deterministic code), a judge (a VLM reading the picture) or a
// scorer (CLIP, aesthetic). These are the shapes every reward and report share.

export type CriterionSource = 'judge' | 'check' | 'scorer';

export interface CriterionScore {
  key: string;
  axis: string;
  /** May be negative (a penalty item such as Rubric-S's text penalty). */
  weight: number;
  /** In [0,1]; null when the criterion could not be scored. */
  score: number | null;
  rationale?: string;
  source?: CriterionSource;
}
