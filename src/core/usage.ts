// Token and cost accounting shared by every model call and summed per rollout / per run.

export interface Usage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when any call had no known price. */
  costUsd: number | null;
  latencyMs: number;
}

export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    latencyMs: a.latencyMs + b.latencyMs,
  };
}
