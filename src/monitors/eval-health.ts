// The reward-health figures of an eval run, per reward kind: the same figures serve reports
// per training step (src/monitors/health.ts), over all of the run's rollouts grouped by prompt,
// with the alert thresholds checked. Eval rollouts have no steps, so there is no growth figure.
import type { ScoreRecord } from '../core/record.ts';
import { type Alert, type AlertThresholds, checkAlerts, DEFAULT_ALERTS } from './alerts.ts';
import { type BatchHealth, batchHealth } from './health.ts';

export interface EvalHealth extends BatchHealth {
  alerts: Alert[];
}

export function evalHealth(
  scored: readonly { prompt_id: string; score: ScoreRecord }[],
  thresholds: AlertThresholds = DEFAULT_ALERTS,
): EvalHealth {
  const h = batchHealth(
    scored.map((s) => s.score),
    (i) => scored[i]!.prompt_id,
  );
  return { ...h, alerts: checkAlerts(h, null, thresholds) };
}

/** Re-checks every reward's health against other thresholds (eval's --alerts). */
export function applyAlertThresholds(
  rewards: Record<string, { health: EvalHealth }>,
  thresholds: AlertThresholds,
): void {
  for (const r of Object.values(rewards)) r.health.alerts = checkAlerts(r.health, null, thresholds);
}
