// The running reward-health monitor of a training run: each scored batch (one request to the
// reward server, usually one training step) is a step. It keeps the last `window` steps to give
// running length figures and how fast they grow, checks the alert thresholds, and reports an
// alert when it starts (the figure crossed its limit this step), so a log gets one warning per
// crossing rather than one per step.
import {
  type Alert,
  type AlertThresholds,
  checkAlerts,
  DEFAULT_ALERTS,
  type GrowthFigures,
} from './alerts.ts';
import {
  type BatchHealth,
  batchHealth,
  completionLengths,
  DEFAULT_FLAT_EPSILON,
  type LengthFigures,
  lengthFigures,
  svgLengths,
} from './health.ts';

/**
 * Alert thresholds, the window the running figures cover, the flat-group ε and an alert callback
 * for `createHealthMonitor`.
 */
export interface HealthMonitorOptions {
  thresholds?: Partial<AlertThresholds>;
  /** Steps the running figures cover. Default 20. */
  window?: number;
  flatEpsilon?: number;
  /** Called once when an alert starts (its figure crossed the limit at this step). */
  onAlert?: (alert: Alert, step: StepHealth) => void;
}

/** One step's batch health, with the running figures over the window and the alerts raised. */
export interface StepHealth extends BatchHealth {
  step: number;
  running: {
    steps: number;
    completion_tokens: LengthFigures;
    svg_tokens: LengthFigures;
    /** Relative change of the mean length per step over the window (least squares); null before 3 steps. */
    growth: GrowthFigures;
  };
  /** Every threshold crossed at this step. */
  alerts: Alert[];
}

/** Reward health over a training run: `observe()` one batch per step. */
export interface HealthMonitor {
  observe(records: Parameters<typeof batchHealth>[0], groupOf: (i: number) => string): StepHealth;
  readonly last: StepHealth | null;
  readonly thresholds: AlertThresholds;
}

/** Least-squares slope of ys over 0..n−1, relative to their mean; null when undefined. */
export function relativeSlope(ys: readonly number[]): number | null {
  const n = ys.length;
  if (n < 3) return null;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  if (my <= 0) return null;
  let sxy = 0;
  let sxx = 0;
  ys.forEach((y, x) => {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  });
  return sxy / sxx / my;
}

/**
 * A monitor of reward health over steps: each `observe(records, groupOf)` adds a batch and
 * returns its figures, running lengths and their growth over the window, and the alerts
 * raised (`onAlert` is called once when an alert starts).
 * @example
 * ```ts
 * const monitor = createHealthMonitor({ onAlert: (a) => console.warn(a) });
 * const step = monitor.observe(records, (i) => records[i]?.prompt_id ?? String(i));
 * ```
 */
export function createHealthMonitor(opts: HealthMonitorOptions = {}): HealthMonitor {
  const thresholds: AlertThresholds = { ...DEFAULT_ALERTS, ...opts.thresholds };
  const window = Math.max(1, opts.window ?? 20);
  const epsilon = opts.flatEpsilon ?? DEFAULT_FLAT_EPSILON;
  const steps: { completion: number[]; svg: number[]; h: BatchHealth }[] = [];
  let active = new Set<string>();
  let step = 0;
  let last: StepHealth | null = null;
  return {
    thresholds,
    get last() {
      return last;
    },
    observe(records, groupOf) {
      const h = batchHealth(records, groupOf, epsilon);
      steps.push({ h, completion: completionLengths(records), svg: svgLengths(records) });
      if (steps.length > window) steps.shift();
      // Steps with no length (all faults) do not bend the growth line.
      const means = (pick: (s: BatchHealth) => LengthFigures) =>
        steps.map((s) => pick(s.h).mean).filter((m): m is number => m !== null);
      const growth: GrowthFigures = {
        completion: relativeSlope(means((s) => s.completion_tokens)),
        svg: relativeSlope(means((s) => s.svg_tokens)),
      };
      const alerts = checkAlerts(h, growth, thresholds);
      last = {
        ...h,
        step: ++step,
        running: {
          steps: steps.length,
          completion_tokens: lengthFigures(steps.flatMap((s) => s.completion)),
          svg_tokens: lengthFigures(steps.flatMap((s) => s.svg)),
          growth,
        },
        alerts,
      };
      const now = new Set(alerts.map((a) => a.alert));
      for (const a of alerts) if (!active.has(a.alert)) opts.onAlert?.(a, last);
      active = now;
      return last;
    },
  };
}
