// The zod schemas of every HTTP body the reward server reads and writes. The same objects
// validate requests and generate /openapi.json, so the documentation cannot drift from the code.
import { z } from '@hono/zod-openapi';
import {
  RewardKindSchema as KindSchema,
  RewardResultSchema,
  RolloutInputSchema,
  ScoreRecordSchema,
} from '../core/record.ts';

// The shapes come from src/core (one source). zod 4 attaches `.openapi()` to schemas made
// after @hono/zod-openapi loaded, so the core schemas are wrapped in fresh ones here.
export const RewardKindSchema = z
  .enum(KindSchema.options)
  .openapi({ description: 'A reward rubrica computes.' });

/** One reward or several, computed from one inspection; the first is each result's `reward`. */
export const RewardRequestSchema = z
  .union([RewardKindSchema, z.array(RewardKindSchema).min(1).max(RewardKindSchema.options.length)])
  .openapi({
    description:
      'Which reward(s) score the rollouts; the server default when omitted. Several rewards are computed from one render; the first is `reward`, all are under `rewards`.',
  });

/**
 * This request's gated checks (issue 41): `CHECK[,CHECK…]`, a list, or `none`. An unknown
 * check name is a 400 `unknown_gate_check`.
 */
export const GateRequestSchema = z.union([z.string(), z.array(z.string()).max(32)]).openapi({
  description:
    'Checks whose flag makes a rollout\'s reward 0 with status "gated" and no judge call: "judge_text,clutter", a list, or "none". Default: the server\'s --gate (judge_text unless set). An unknown check is 400 unknown_gate_check.',
});

/** The zod schema of a request's judge mode (`joint` or `per-item`). */
export const JudgeModeSchema = z
  .enum(['joint', 'per-item'])
  .openapi({ description: 'joint = one judge call for all items; per-item = one call per item.' });

const RolloutItemSchema = z.object(RolloutInputSchema.shape).openapi('RolloutItem', {
  description:
    "A rollout: id, prompt_id (finds the rubric) or prompt (its text), the completion, and optionally its domain (svg, python, latex, dot, vega-lite, html, mermaid, lilypond, smiles), which overrides detection. A requested reward that does not apply to a rollout's domain refuses the request: 400 reward_not_applicable.",
});

/** The zod schema of POST /v1/rewards: rollouts, and optionally the reward(s) and judge mode. */
export const RewardsRequestSchema = z
  .object({
    items: z.array(RolloutItemSchema).min(1),
    reward: RewardRequestSchema.optional(),
    mode: JudgeModeSchema.optional(),
    gate: GateRequestSchema.optional(),
    deadline_ms: z.number().int().min(1).max(3_600_000).optional().openapi({
      description:
        'Answer by this many ms; rollouts not scored by then are grader faults with reason "deadline" (their work runs on into the cache). Default: the server\'s --deadline-ms.',
    }),
  })
  .openapi('RewardsRequest');

/**
 * The zod schema of a result's GRPO group statistics: the group's key, its size, the grader
 * faults left out, mean, std, min, max, and whether the group is flat.
 */
export const GroupStatsSchema = z
  .object({
    key: z.string().openapi({ description: 'prompt_id, or "prompt:" + normalised prompt text.' }),
    size: z
      .number()
      .int()
      .openapi({ description: 'Rollouts of the group the statistics are over.' }),
    excluded: z.number().int().openapi({
      description: 'Rollouts of the group left out of the statistics: grader faults (advantage 0).',
    }),
    mean: z.number(),
    std: z
      .number()
      .openapi({ description: 'Unbiased (n−1) standard deviation; 0 for a group of one.' }),
    min: z.number(),
    max: z.number(),
    flat: z.boolean().openapi({
      description:
        'At least two measured rollouts, all within ε (--flat-epsilon, default 0.01) of each other: the group gives GRPO no signal.',
    }),
  })
  .openapi('GroupStats');

// The criterion tree is recursive; OpenAPI 3.0 generators cannot follow that, so the document
// describes one level and the children as objects (leaf or group).
const TreeDocSchema = z
  .object({
    kind: z.literal('group'),
    key: z.string(),
    weight: z.number(),
    children: z.array(z.record(z.string(), z.unknown())).openapi({
      description:
        'Leaves {kind:"leaf", key, axis, weight, score, rationale, source, reason} or nested groups.',
    }),
  })
  .nullable()
  .optional()
  .openapi('CriterionTree', {
    description:
      'The weighted criterion tree the reward was computed from (docs/rubrics-and-judging.md).',
  });

const RewardResultDocSchema = RewardResultSchema.extend({ tree: TreeDocSchema });

/**
 * The zod schema of one POST /v1/rewards result: the score record plus its group's
 * statistics and its advantage.
 */
export const ScoreResultSchema = ScoreRecordSchema.extend({
  tree: TreeDocSchema,
  rewards: z
    .partialRecord(KindSchema, RewardResultDocSchema)
    .optional()
    .openapi({ description: 'Every requested reward by kind, when more than one was asked.' }),
  group: GroupStatsSchema,
  advantage: z.number().openapi({
    description:
      'GRPO advantage (R − mean) / (std + ε) in its group; 0 for a grader fault (status grader_error), which is left out of the group statistics.',
  }),
}).openapi('ScoreResult');

const nullableNumber = z.number().nullable();
const LengthSchema = z.object({ n: z.number(), mean: nullableNumber, p95: nullableNumber });
const FlagSchema = z.object({
  share: nullableNumber,
  flagged: z.number(),
  mean_reward_flagged: nullableNumber,
  mean_reward_unflagged: nullableNumber,
  judged_flagged: z.number().int(),
  judged_unflagged: z.number().int(),
});

export const StepHealthSchema = z
  .object({
    step: z.number().int(),
    rollouts: z.number().int(),
    measured: z.number().int(),
    judged: z.number().int(),
    grader_faults: z.number().int(),
    grader_fault_share: nullableNumber,
    groups: z.number().int(),
    flat_groups: z.number().int(),
    flat_group_share: nullableNumber,
    rule_zero_groups: z.number().int(),
    flat_epsilon: z.number(),
    completion_tokens: LengthSchema,
    svg_tokens: LengthSchema,
    text_in_image: FlagSchema,
    clutter: FlagSchema,
    judge_text: FlagSchema,
    running: z.object({
      steps: z.number().int(),
      completion_tokens: LengthSchema,
      svg_tokens: LengthSchema,
      growth: z.object({ completion: nullableNumber, svg: nullableNumber }),
    }),
    alerts: z.array(
      z.object({ alert: z.string(), value: z.number(), limit: z.number(), message: z.string() }),
    ),
  })
  .openapi('StepHealth', {
    description:
      "Reward-health figures of this request (one training step) and running figures over the server's recent steps (docs/probe.md).",
  });

/**
 * The zod schema of POST /v1/rewards' answer: the results in request order, and the batch's
 * reward health.
 */
export const RewardsResponseSchema = z
  .object({ results: z.array(ScoreResultSchema), health: StepHealthSchema.optional() })
  .openapi('RewardsResponse');

const VerlExtraInfoSchema = z.record(z.string(), z.unknown()).nullable();

/**
 * The zod schema of POST /v1/verl: verl's reward-manager batch (solution strings, data
 * sources, ground truths = rubric ids, extra infos), lists of one length.
 */
export const VerlRequestSchema = z
  .object({
    data_sources: z.array(z.string().nullable()),
    solution_strs: z.array(z.string()),
    ground_truths: z.array(z.union([z.string(), z.number()]).nullable()).openapi({
      description: "The rubric id (verl's reward_model.ground_truth).",
    }),
    extra_infos: z.array(VerlExtraInfoSchema).optional(),
    reward: RewardRequestSchema.optional(),
    mode: JudgeModeSchema.optional(),
    gate: GateRequestSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const n = body.solution_strs.length;
    if (n === 0) ctx.addIssue({ code: 'custom', message: 'solution_strs is empty' });
    for (const key of ['data_sources', 'ground_truths', 'extra_infos'] as const) {
      const list = body[key];
      if (list !== undefined && list.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} has ${list.length} entries but solution_strs has ${n}`,
        });
      }
    }
  })
  .openapi('VerlRequest');

/** The zod schema of one verl result: `score` plus flat extras, the same keys for every item. */
export const VerlResultSchema = z
  .record(z.string(), z.union([z.number(), z.string(), z.null()]))
  .openapi('VerlResult', {
    description:
      'verl dict form: "score" plus flat extras with the same keys for every item of the batch.',
  });

/** The zod schema of POST /v1/verl's answer: one result per solution string, in order. */
export const VerlResponseSchema = z.array(VerlResultSchema).openapi('VerlResponse');

/**
 * The zod schema of POST /v1/openrlhf: OpenRLHF's remote-reward batch (queries, prompts,
 * labels), lists of one length. OpenRLHF ≥ 0.10 sends one sample per request; with a comma
 * list of replica URLs, versions before PR #1325 also send the other replicas an EMPTY batch,
 * which is answered with empty lists (a refusal would fail the sample's reward).
 */
export const OpenRlhfRequestSchema = z
  .object({
    query: z
      .array(z.string())
      .openapi({ description: 'Prompt + response as decoded by the trainer.' }),
    prompts: z.array(z.string()).optional(),
    labels: z
      .array(z.union([z.string(), z.number()]).nullable())
      .optional()
      .openapi({ description: 'Rubric ids.' }),
    reward: RewardRequestSchema.optional(),
    mode: JudgeModeSchema.optional(),
    gate: GateRequestSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const n = body.query.length;
    for (const key of ['prompts', 'labels'] as const) {
      const list = body[key];
      if (list !== undefined && list.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} has ${list.length} entries but query has ${n}`,
        });
      }
    }
  })
  .openapi('OpenRlhfRequest');

/** The zod schema of POST /v1/openrlhf's answer (see OpenRlhfResult). */
export const OpenRlhfResponseSchema = z
  .object({
    rewards: z.array(z.number()),
    scores: z.array(z.number()),
    extra_logs: z.record(z.string(), z.array(z.number())).openapi({
      description:
        'Numbers only, the same keys on every path: scored, gated, grader_error, judge_error, no_rubric, renders, blank, cached, judge_calls, comp_<key> per component, score_<kind> per further reward.',
    }),
  })
  .openapi('OpenRlhfResponse');

/** The zod schema of reward components: the kind's fixed keys, summing to the reward. */
export const ComponentsSchema = z.record(z.string(), z.number()).openapi('RewardComponents', {
  description:
    "The reward split into the kind's fixed component keys (GET /v1/components); the values sum to the reward sent.",
});

/**
 * The zod schema of POST /v1/slime: one sample as slime's remote RM posts it
 * (slime/rollout/rm_hub: {prompt, response, label}); the rubric id travels as label.
 */
export const SlimeRequestSchema = z
  .looseObject({
    prompt: z
      .union([z.string(), z.array(z.record(z.string(), z.unknown()))])
      .nullish()
      .openapi({ description: 'The prompt: a string or a chat list [{role, content}].' }),
    response: z.string(),
    label: z
      .union([z.string(), z.number()])
      .nullish()
      .openapi({ description: 'The rubric id (prompt_id).' }),
    reward: RewardRequestSchema.optional(),
    mode: JudgeModeSchema.optional(),
    gate: GateRequestSchema.optional(),
  })
  .openapi('SlimeRequest');

/** The zod schema of POST /v1/slime's answer: read with slime's `--reward-key reward`. */
export const SlimeResponseSchema = z
  .object({
    reward: z.number().openapi({
      description:
        "The value to train on (slime: --reward-key reward); a grader fault's is its gathered group-mates' mean, flagged grader_error = 1.",
    }),
    status: z.string(),
    reason: z.string(),
    scored: z.number(),
    gated: z.number(),
    grader_error: z.number(),
    judge_error: z.number(),
    no_rubric: z.number(),
    renders: z.number(),
    blank: z.number(),
    cached: z.number(),
    judge_calls: z.number(),
    components: ComponentsSchema,
  })
  .openapi('SlimeResponse');

/**
 * The zod schema of POST /verify: a NeMo Gym resources-server verify request
 * (nemo_gym/base_resources_server.py BaseVerifyRequest: responses_create_params + response,
 * plus the dataset row's own fields); the rubric id travels as prompt_id (or label).
 */
export const VerifyRequestSchema = z
  .looseObject({
    responses_create_params: z
      .looseObject({ input: z.unknown() })
      .openapi({ description: 'The Responses API request the policy answered.' }),
    response: z
      .looseObject({ output: z.array(z.unknown()) })
      .openapi({ description: "The policy's Responses API response." }),
    prompt_id: z.union([z.string(), z.number()]).nullish(),
    label: z.union([z.string(), z.number()]).nullish(),
  })
  .openapi('VerifyRequest');

/**
 * The zod schema of POST /verify's answer: the request echoed with `reward` and
 * `reward_components` (NeMo Gym's BaseMultiRewardVerifyResponse), flat figures, and on a
 * grader fault NeMo Gym's failure tag.
 */
export const VerifyResponseSchema = z
  .looseObject({
    reward: z.number(),
    reward_components: ComponentsSchema,
    rubrica_status: z.string(),
    rubrica_reason: z.string(),
    _ng_failure_class: z.literal('judge_failed').optional().openapi({
      description:
        'Present on a grader fault (reward 0.0 is then not a measurement): NeMo Gym routes the row to its failures file, out of the metrics, retried on resume.',
    }),
    _ng_failure_judge_error: z.string().optional(),
  })
  .openapi('VerifyResponse');

/** The zod schema of GET /v1/components: every reward kind's component keys, in order. */
export const ComponentKeysSchema = z
  .record(z.string(), z.array(z.string()))
  .openapi('ComponentKeys', {
    description: 'Reward kind → its fixed component keys (flat trainer extras: comp_<key>).',
  });

/** The zod schema of every error body: `{error: {code, message}}`. */
export const ErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string() }),
  })
  .openapi('Error');

/** The zod schema of GET /healthz: serving or draining, and the rollouts in flight. */
export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'draining']),
    in_flight: z.number().int(),
    max_in_flight: z.number().int(),
    uptime_s: z.number(),
  })
  .openapi('Health');

/** The zod schema of GET /readyz: ready or not, and why (the judge's state). */
export const ReadySchema = z
  .object({
    status: z.enum(['ready', 'not_ready', 'draining']),
    judge: z
      .object({
        model: z.string(),
        /** Whether the judge answered a call recently or a probe just now. */
        answers: z.boolean(),
        circuit: z.enum(['closed', 'open', 'half-open']),
        /** The last failure's code (`network`, `timeout`, `http_error`, `circuit_open`, …). */
        error: z.string().optional(),
        /** Seconds until the open circuit lets a probe through. */
        retry_in_s: z.number().optional(),
      })
      .nullable(),
    /**
     * What isolation this machine gives each domain (`rubrica doctor`'s report, run at
     * start): null while the check still runs; absent when serve was not asked to run it.
     */
    doctor: z
      .object({
        ok: z.boolean(),
        memoryCap: z.enum(['cgroup v2', 'cgroup v1', 'per-process only']),
        memoryCapReason: z.string(),
        domains: z.array(
          z
            .object({ domain: z.string(), safe: z.boolean(), notes: z.array(z.string()) })
            .passthrough(),
        ),
      })
      .passthrough()
      .nullable()
      .optional(),
  })
  .openapi('Ready');

/** A POST /v1/rewards body. */
export type RewardsRequest = z.infer<typeof RewardsRequestSchema>;
/** A POST /v1/verl body. */
export type VerlRequest = z.infer<typeof VerlRequestSchema>;
/** A POST /v1/openrlhf body. */
export type OpenRlhfRequest = z.infer<typeof OpenRlhfRequestSchema>;
/** A POST /v1/slime body. */
export type SlimeRequest = z.infer<typeof SlimeRequestSchema>;
/** A POST /verify body (NeMo Gym). */
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;
/** A result's GRPO group statistics (see GroupStatsSchema). */
export type GroupStats = z.infer<typeof GroupStatsSchema>;
/** One verl result: `score` and flat extras. */
export type VerlResult = Record<string, number | string | null>;
