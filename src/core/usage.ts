// Token and cost accounting shared by every model call and summed per rollout / per run.

import { z } from 'zod';

export const UsageSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** USD; null when any call had no known price. */
  costUsd: z.number().nullable(),
  latencyMs: z.number(),
});
/** What model calls cost: calls, tokens in and out, USD (null when a price is unknown), latency. */
export type Usage = z.infer<typeof UsageSchema>;

/** Usage of nothing: the starting point for addUsage. */
export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
}

/** The sum of two usages; the cost is null as soon as either side's is unknown. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    latencyMs: a.latencyMs + b.latencyMs,
  };
}
