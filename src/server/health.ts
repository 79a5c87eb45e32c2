// The reward server's health monitor: each scored request is one step of src/monitors, its
// figures go to /metrics (health-metrics.ts) and the native response, and an alert that starts
// is logged as a warning carrying the figure and its limit.
import type { Logger } from 'pino';
import { groupKey } from '../core/group-key.ts';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import {
  createHealthMonitor,
  type HealthMonitorOptions,
  type StepHealth,
} from '../monitors/monitor.ts';
import { createHealthGauges } from './health-metrics.ts';
import type { ServerMetrics } from './metrics.ts';

export type ServerHealthOptions = Omit<HealthMonitorOptions, 'onAlert'>;

export function createServerHealth(
  opts: ServerHealthOptions,
  metrics: ServerMetrics,
  log: Logger | undefined,
): (items: readonly RolloutInput[], records: readonly ScoreRecord[]) => StepHealth {
  const gauges = createHealthGauges(metrics.registry);
  let started: string[] = [];
  const monitor = createHealthMonitor({
    ...opts,
    onAlert: (a, step) => {
      started.push(a.alert);
      log?.warn({ alert: a.alert, value: a.value, limit: a.limit, step: step.step }, a.message);
    },
  });
  return (items, records) => {
    started = [];
    const step = monitor.observe(records, (i) => groupKey(items[i]!));
    gauges.update(step, started);
    return step;
  };
}
