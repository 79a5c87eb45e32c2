// One scored rollout: a line of `rubrica score`'s output, a result of POST /v1/rewards, a
// reward inside an eval run's results.jsonl. Everything downstream reads this shape. The zod
// schemas here are the only definition: types are inferred from them, the HTTP schemas extend
// them, and files read back are validated with them.

import { z } from 'zod';
import { AssetsInputSchema } from './assets.ts';
import { CriterionGroupSchema, CriterionLeafSchema } from './criteria.ts';
import { DOMAIN_IDS } from './domain-ids.ts';
import { ProvenanceSchema } from './provenance.ts';
import { isGraderFaultRecord, ReasonSchema, StatusSchema } from './status.ts';
import { UsageSchema } from './usage.ts';

/** Every reward rubrica computes; the first of a request is the record's `reward`. */
export const RewardKindSchema = z.enum([
  'ruler',
  'universal',
  'rubric-s',
  'hybrid',
  'prisma',
  'direct',
]);
/** A reward kind's name (`ruler`, `rubric-s`, `universal`, `hybrid`, `prisma`, …). */
export type RewardKind = z.infer<typeof RewardKindSchema>;
/** Every reward kind, in the order the schema lists them. */
export const REWARD_KINDS: readonly RewardKind[] = RewardKindSchema.options;

export const ChecksSummarySchema = z.object({
  renders: z.boolean(),
  blank: z.boolean(),
  ink_coverage: z.number().nullable(),
  clipped: z.boolean().nullable(),
  text_in_image: z.boolean(),
  clutter: z.boolean(),
  /** Text addressed to the judge (checks/judge-text.ts); absent on records made before it. */
  judge_text: z.boolean().optional(),
  output_tokens: z.number(),
  svg_tokens: z.number(),
  dwt_stages: z.array(z.string()),
  dwt_valid: z.boolean(),
  /** Numbers behind the flags, keyed by check name. */
  values: z.record(z.string(), z.number()),
});
/** The checks as a score record carries them: flags and numbers (see summarizeChecks). */
export type ChecksSummary = z.infer<typeof ChecksSummarySchema>;

/** One reward's verdict on one rollout. */
export const RewardResultSchema = z.object({
  /** Which reward scored it. */
  reward_kind: RewardKindSchema,
  /** In [0,1]; 0 when status is not ok (a grader fault's 0 is never trained on: see status). */
  reward: z.number(),
  status: StatusSchema,
  /** Why the status is not ok. */
  reason: ReasonSchema.optional(),
  /** Human-readable detail for `reason`. */
  message: z.string().optional(),
  /** The flat view of the tree's leaves (per-criterion scores for trainers and reports). */
  criteria: z.array(CriterionLeafSchema),
  /** The weighted criterion tree the reward was computed from; null when none was built. */
  tree: CriterionGroupSchema.nullable().optional(),
  /**
   * The reward split into the kind's fixed component keys (REWARD_COMPONENT_KEYS in
   * src/reward/components.ts): weighted contributions of the top of the tree that sum to
   * `reward`; every key 0 when the reward was not measured (GDPO, docs/rubrics-and-judging.md).
   */
  components: z.record(z.string(), z.number()),
  cached: z.boolean(),
  usage: UsageSchema,
  /** How the judge's item scores were read: expected (Σ p·v) or greedy (judged rewards). */
  scoring: z.enum(['expected', 'greedy']).optional(),
  /** What produced the reward: judge, server revision, temperature, seed, mode, prompt hash. */
  provenance: ProvenanceSchema.optional(),
  /**
   * The reward's interval [lo, hi] at `interval_level`, from the item distributions and the
   * rubric's weights (a point when every item was read greedily), conformally widened when a
   * calibration was given (`interval_calibrated`).
   */
  interval: z.tuple([z.number(), z.number()]).optional(),
  interval_level: z.number().optional(),
  interval_calibrated: z.boolean().optional(),
});
/**
 * One reward kind's result for a rollout: the reward (null unless `status` is `ok`), its
 * status and reason, the criterion tree behind it, and what the graders cost.
 */
export type RewardResult = z.infer<typeof RewardResultSchema>;

/** How a pairwise judged record was reached (src/pipeline/relative.ts). */
export const PairwiseRelativeSchema = z.object({
  judging: z.literal('pairwise'),
  pairs: z.enum(['circular', 'all']),
  /** Members of the group that were compared (rendered and judged ok). */
  group_size: z.number(),
  /** Ordered comparisons this rollout was in, those answered, those masked (faulted). */
  comparisons: z.number(),
  answered: z.number(),
  masked: z.number(),
  /** Wins, a tie counting one half. */
  wins: z.number(),
  /** Bradley–Terry strength (log-odds scale). */
  strength: z.number(),
  /** The absolute reward this rollout had alone. */
  absolute_reward: z.number(),
  /** True when no comparison was answered and the absolute reward stands. */
  fallback: z.boolean(),
  /**
   * What the record's `interval` is (src/reward/relative-interval.ts): `pair-bootstrap`, a
   * percentile bootstrap of the Bradley–Terry fit over the compared pairs (both orders kept
   * together); `none`, no interval (too few pairs), `interval_note` says why.
   */
  interval_method: z.enum(['pair-bootstrap', 'none']).optional(),
  interval_resamples: z.number().optional(),
  interval_note: z.string().optional(),
});

/**
 * How a group judged record was reached (src/pipeline/group-relative.ts): the pictures of its
 * chunk shown in one call, in each order asked; the reward is the mean of its scores over the
 * orders answered.
 */
export const GroupRelativeSchema = z.object({
  judging: z.literal('group'),
  /** Members of the group that were judged together (rendered and judged ok). */
  group_size: z.number(),
  /** Pictures shown in this rollout's calls (the group, or its chunk of a larger group). */
  chunk_size: z.number(),
  /** Orders its chunk was shown in (calls asked), those answered, those masked (faulted). */
  orders: z.number(),
  answered: z.number(),
  masked: z.number(),
  /** Its score (weighted over the items) in each answered order, then the position it held. */
  order_scores: z.array(z.number()),
  positions: z.array(z.number()),
  /** How the group judge's item scores were read. */
  scoring: z.enum(['expected', 'greedy']),
  /** The group judge asked and the version (hash) of its prompt template. */
  judge: z.string(),
  prompt_hash: z.string(),
  /** The absolute reward this rollout had alone. */
  absolute_reward: z.number(),
  /** True when no order was answered and the absolute reward stands. */
  fallback: z.boolean(),
  /**
   * Group scores claim no interval yet (`none`); `interval_note` says why. The record then has
   * no `interval` (the absolute one described another reward).
   */
  interval_method: z.enum(['none']).optional(),
  interval_note: z.string().optional(),
});

/** How a relatively judged record was reached: pairwise or group. */
export const RelativeSchema = z.discriminatedUnion('judging', [
  PairwiseRelativeSchema,
  GroupRelativeSchema,
]);

/**
 * The zod schema of a score record: one scored rollout, as JSONL files and the HTTP service
 * write it. The one definition of its shape.
 */
export const ScoreRecordSchema = RewardResultSchema.extend({
  id: z.string(),
  prompt_id: z.string().nullable(),
  checks: ChecksSummarySchema,
  /** Render wall time, ms (null when nothing was rendered). */
  render_ms: z.number().nullable(),
  /**
   * Every reward asked for, keyed by kind (present when more than one was asked). The top-level
   * fields are the first one's, except `usage`, which sums all of them.
   */
  rewards: z.partialRecord(RewardKindSchema, RewardResultSchema).optional(),
  /**
   * Present when the rollout was judged against its group (`--judging pairwise`, issue 37):
   * what was compared and answered, and the absolute reward the relative one replaced.
   */
  relative: RelativeSchema.optional(),
  /**
   * Present when the judge input built for this rollout was altered before it was sent:
   * `neutralised` counts the chat-template token strings (`<|im_end|>`, `[INST]`, …) rewritten
   * in the messages of the judge calls made for it (issue 41). Absent: nothing was altered.
   */
  judge_input: z.object({ neutralised: z.number().int().nonnegative() }).optional(),
});
/**
 * One scored rollout: id, prompt, the first reward's result, its checks, and every reward
 * asked for under `rewards`.
 */
export type ScoreRecord = z.infer<typeof ScoreRecordSchema>;

/** A rollout as every face reads it (CLI JSONL lines, HTTP items, eval inputs). */
export const RolloutInputSchema = z.object({
  id: z.string().min(1),
  prompt_id: z.string().nullish(),
  prompt: z.string().nullish(),
  completion: z.string(),
  /** The completion's domain (docs/domains.md); absent: detected, SVG as before. */
  domain: z.enum(DOMAIN_IDS).nullish(),
  /**
   * The task's data files (issue 23): name → inline content, or `{ path }` under the data root
   * (`--data-root`). The job that renders the completion can read them under their names.
   */
  assets: AssetsInputSchema.nullish(),
});
/**
 * One rollout to score: its completion, with the prompt (or a `prompt_id` naming one in the
 * rubrics file) and optionally its domain.
 */
export type RolloutInput = z.infer<typeof RolloutInputSchema>;

type StatusLike = { status?: string; reason?: string };

/**
 * Whether any reward of a record (read back from a file, possibly written by an older
 * version, which wrote grader faults as `unscoreable` with the fault as reason) is a grader
 * fault, so a batch command scores the rollout again.
 */
export function hasGraderFault(
  r: StatusLike & { rewards?: Record<string, StatusLike | undefined> },
): boolean {
  const faulted = (s: StatusLike | undefined) => s !== undefined && isGraderFaultRecord(s);
  return faulted(r) || Object.values(r.rewards ?? {}).some(faulted);
}
