// The reward-health monitor's figures as Prometheus series on the server's registry: the last
// step's flat-group, fault and flag shares, the running length figures and their growth, and
// alerts (active now, and how many times each started). Updated once per scored request.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { StepHealth } from '../monitors/monitor.ts';

export interface HealthGauges {
  update(step: StepHealth, started: readonly string[]): void;
}

export function createHealthGauges(registry: Registry): HealthGauges {
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name: `rubrica_health_${name}`, help, labelNames, registers });
  const step = gauge('step', 'Scored requests (steps) the health monitor has seen');
  const flat = gauge(
    'flat_group_share',
    'Share of GRPO groups in the last step whose rewards are all within epsilon',
  );
  const faults = gauge(
    'grader_fault_share',
    'Share of rollouts in the last step that were grader faults',
  );
  const length = gauge(
    'length_tokens',
    'Running completion / SVG length in tokens over the window',
    ['what', 'stat'],
  );
  const growth = gauge(
    'length_growth',
    'Relative growth of the mean length per step over the window',
    ['what'],
  );
  const flagged = gauge(
    'flagged_share',
    'Share of measured rollouts in the last step flagged by a check',
    ['check'],
  );
  const reward = gauge(
    'flagged_mean_reward',
    'Mean reward in the last step of rollouts flagged / not flagged by a check',
    ['check', 'flagged'],
  );
  const active = gauge('alert_active', '1 while an alert threshold is crossed', ['alert']);
  const alerts = new Counter({
    name: 'rubrica_health_alerts_total',
    help: 'Times an alert started (its figure crossed the threshold)',
    labelNames: ['alert'],
    registers,
  });
  const set = (g: Gauge, labels: Record<string, string>, v: number | null) => {
    // A figure that could not be computed this step is removed, not reported as 0.
    if (v === null || !Number.isFinite(v)) g.remove(labels);
    else g.set(labels, v);
  };
  const known = new Set<string>();
  return {
    update(s, started) {
      step.set(s.step);
      set(flat, {}, s.flat_group_share);
      set(faults, {}, s.grader_fault_share);
      for (const what of ['completion', 'svg'] as const) {
        const r = what === 'completion' ? s.running.completion_tokens : s.running.svg_tokens;
        set(length, { what, stat: 'mean' }, r.mean);
        set(length, { what, stat: 'p95' }, r.p95);
        set(growth, { what }, s.running.growth[what]);
      }
      for (const check of ['text_in_image', 'clutter', 'judge_text'] as const) {
        set(flagged, { check }, s[check].share);
        set(reward, { check, flagged: 'true' }, s[check].mean_reward_flagged);
        set(reward, { check, flagged: 'false' }, s[check].mean_reward_unflagged);
      }
      const now = new Set(s.alerts.map((a) => a.alert as string));
      for (const a of now) known.add(a);
      for (const a of known) active.set({ alert: a }, now.has(a) ? 1 : 0);
      for (const a of started) alerts.inc({ alert: a });
    },
  };
}
