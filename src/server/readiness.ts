// Readiness: does the judge answer? /healthz only says the process serves HTTP (liveness);
// a trainer or an orchestrator that wants to know whether rewards can be computed asks
// /readyz. The answer comes from what the judge client already knows when it can — an open
// circuit is "not ready" at once, a call answered in the last `freshMs` is "ready" — and
// otherwise from one small probe call (models/check.ts) bounded by `probeTimeoutMs`, shared
// by concurrent readiness requests and remembered for `freshMs` so probes never hammer it.
import type { z } from '@hono/zod-openapi';
import { checkModel } from '../models/check.ts';
import type { CircuitHealth } from '../models/circuit-breaker.ts';
import type { ModelClient } from '../models/types.ts';
import type { ReadySchema } from './schemas.ts';

/** The judge's part of /readyz: whether it answers, its circuit state and last error. */
export type JudgeReadiness = NonNullable<z.infer<typeof ReadySchema>['judge']>;

/** null: this server has no judge (e.g. the hybrid reward alone), so nothing to wait for. */
export type Readiness = () => Promise<JudgeReadiness | null>;

export interface ReadinessOptions {
  /** Longest a probe call may take, ms. Default 5 000. */
  probeTimeoutMs?: number;
  /** How long a success (a real call or a probe) counts, ms. Default 15 000. */
  freshMs?: number;
  now?: () => number;
}

type Probed = { at: number; ok: boolean; error?: string };

/**
 * /readyz for a judge client: its circuit breaker's view, confirmed by a small text-only
 * probe when the last one is stale (one probe at a time, bounded by `probeTimeoutMs`).
 */
export function judgeReadiness(
  client: ModelClient & { health(): CircuitHealth },
  opts: ReadinessOptions = {},
): Readiness {
  const probeTimeoutMs = opts.probeTimeoutMs ?? 5000;
  const freshMs = opts.freshMs ?? 15_000;
  const now = opts.now ?? Date.now;
  let last: Probed | undefined;
  let running: Promise<Probed> | undefined;

  const probe = (): Promise<Probed> => {
    running ??= checkModel(client, { image: false, signal: AbortSignal.timeout(probeTimeoutMs) })
      .then((r): Probed => {
        const out: Probed = { at: now(), ok: r.ok };
        if (r.error) out.error = r.error.code === 'aborted' ? 'timeout' : r.error.code;
        return out;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return async () => {
    const h = client.health();
    const base = { model: client.spec.id, circuit: h.state };
    if (h.state === 'open') {
      const out: JudgeReadiness = { ...base, answers: false, error: 'circuit_open' };
      if (h.retryInMs !== undefined) out.retry_in_s = Math.ceil(h.retryInMs / 1000);
      return out;
    }
    if (h.lastSuccessAt !== null && now() - h.lastSuccessAt < freshMs) {
      return { ...base, answers: true };
    }
    if (!last || now() - last.at >= freshMs || !last.ok) last = await probe();
    const after = client.health().state;
    return {
      model: client.spec.id,
      circuit: after,
      answers: last.ok,
      ...(last.error ? { error: last.error } : {}),
    };
  };
}
