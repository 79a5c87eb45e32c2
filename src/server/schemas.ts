// The zod schemas of every HTTP body the reward server reads and writes. The same objects
// validate requests and generate /openapi.json, so the documentation cannot drift from the code.
import { z } from '@hono/zod-openapi';

export const RewardKindSchema = z
  .enum(['ruler', 'universal', 'rubric-s', 'hybrid'])
  .openapi({ description: 'Which reward scores the rollouts; the server default when omitted.' });

export const JudgeModeSchema = z
  .enum(['joint', 'per-item'])
  .openapi({ description: 'joint = one judge call for all items; per-item = one call per item.' });

const RolloutItemSchema = z
  .object({
    id: z.string().min(1).openapi({ example: 'p17#3' }),
    prompt_id: z.string().nullish().openapi({ example: 'p17' }),
    prompt: z
      .string()
      .nullish()
      .openapi({ description: 'Used to find the rubric when prompt_id is absent.' }),
    completion: z.string().openapi({ description: "The policy's full completion text." }),
  })
  .openapi('RolloutItem');

export const RewardsRequestSchema = z
  .object({
    items: z.array(RolloutItemSchema).min(1),
    reward: RewardKindSchema.optional(),
    mode: JudgeModeSchema.optional(),
  })
  .openapi('RewardsRequest');

const CriterionSchema = z
  .object({
    key: z.string(),
    axis: z.string(),
    weight: z.number(),
    score: z.number().nullable(),
    rationale: z.string().optional(),
    source: z.enum(['judge', 'check', 'scorer']).optional(),
  })
  .openapi('CriterionScore');

const UsageSchema = z
  .object({
    calls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number().nullable(),
    latencyMs: z.number(),
  })
  .openapi('Usage');

export const GroupStatsSchema = z
  .object({
    key: z.string().openapi({ description: 'prompt_id, or "prompt:" + normalised prompt text.' }),
    size: z.number().int(),
    mean: z.number(),
    std: z
      .number()
      .openapi({ description: 'Unbiased (n−1) standard deviation; 0 for a group of one.' }),
    min: z.number(),
    max: z.number(),
  })
  .openapi('GroupStats');

export const ScoreResultSchema = z
  .object({
    id: z.string(),
    prompt_id: z.string().nullable(),
    reward: z.number(),
    status: z.enum(['ok', 'unscoreable']),
    reason: z.string().optional(),
    message: z.string().optional(),
    reward_kind: z.string(),
    criteria: z.array(CriterionSchema),
    checks: z.record(z.string(), z.unknown()),
    cached: z.boolean(),
    usage: UsageSchema,
    render_ms: z.number().nullable(),
    group: GroupStatsSchema,
    advantage: z
      .number()
      .openapi({ description: 'GRPO advantage (R − mean) / (std + ε) in its group.' }),
  })
  .openapi('ScoreResult');

export const RewardsResponseSchema = z
  .object({ results: z.array(ScoreResultSchema) })
  .openapi('RewardsResponse');

const VerlExtraInfoSchema = z.record(z.string(), z.unknown()).nullable();

export const VerlRequestSchema = z
  .object({
    data_sources: z.array(z.string().nullable()),
    solution_strs: z.array(z.string()),
    ground_truths: z.array(z.union([z.string(), z.number()]).nullable()).openapi({
      description: "The rubric id (verl's reward_model.ground_truth).",
    }),
    extra_infos: z.array(VerlExtraInfoSchema).optional(),
    reward: RewardKindSchema.optional(),
    mode: JudgeModeSchema.optional(),
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

export const VerlResultSchema = z
  .record(z.string(), z.union([z.number(), z.string(), z.null()]))
  .openapi('VerlResult', {
    description:
      'verl dict form: "score" plus flat extras with the same keys for every item of the batch.',
  });

export const VerlResponseSchema = z.array(VerlResultSchema).openapi('VerlResponse');

export const OpenRlhfRequestSchema = z
  .object({
    query: z
      .array(z.string())
      .openapi({ description: 'Prompt + response as decoded by the trainer.' }),
    prompts: z.array(z.string()).optional(),
    labels: z.array(z.string().nullable()).optional().openapi({ description: 'Rubric ids.' }),
    reward: RewardKindSchema.optional(),
    mode: JudgeModeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const n = body.query.length;
    if (n === 0) ctx.addIssue({ code: 'custom', message: 'query is empty' });
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

export const OpenRlhfResponseSchema = z
  .object({
    rewards: z.array(z.number()),
    scores: z.array(z.number()),
    extra_logs: z.record(z.string(), z.array(z.number())),
  })
  .openapi('OpenRlhfResponse');

export const ErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string() }),
  })
  .openapi('Error');

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'draining']),
    in_flight: z.number().int(),
    max_in_flight: z.number().int(),
    uptime_s: z.number(),
  })
  .openapi('Health');

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
  })
  .openapi('Ready');

export type RewardsRequest = z.infer<typeof RewardsRequestSchema>;
export type VerlRequest = z.infer<typeof VerlRequestSchema>;
export type OpenRlhfRequest = z.infer<typeof OpenRlhfRequestSchema>;
export type GroupStats = z.infer<typeof GroupStatsSchema>;
export type VerlResult = Record<string, number | string | null>;
