// The health gauges on a real prom-client registry (issue 41): judge_text is a flagged check
// like text_in_image and clutter, so `rubrica_health_flagged_share{check="judge_text"}` says
// what share of the last step's rollouts wrote to the judge — gated ones included (they are
// the policy's own zeros, not faults) — and the flagged/unflagged mean rewards are over judged
// rollouts only (a gated rollout was judged by no one, so its flagged mean is absent).
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import { createHealthMonitor } from '../monitors/monitor.ts';
import { createHealthGauges } from './health-metrics.ts';

const clean = (id: string, reward: number) =>
  scoreRecord({ id, reward, checks: { judge_text: false } });
const gated = (id: string) =>
  scoreRecord({
    id,
    reward: 0,
    status: 'gated',
    reason: 'judge_text',
    checks: { judge_text: true },
  });

async function series(registry: Registry): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const m of await registry.getMetricsAsJSON())
    for (const v of m.values as { labels: Record<string, string>; value: number }[])
      out.set(`${m.name}${JSON.stringify(v.labels)}`, v.value);
  return out;
}

describe('health gauges', () => {
  it('count judge_text in rubrica_health_flagged_share, gated rollouts included', async () => {
    const registry = new Registry();
    const gauges = createHealthGauges(registry);
    const monitor = createHealthMonitor();
    const records = [clean('a', 0.6), clean('b', 0.4), gated('c'), gated('d')];
    gauges.update(
      monitor.observe(records, () => 'g'),
      [],
    );
    const s = await series(registry);
    expect(s.get('rubrica_health_flagged_share{"check":"judge_text"}')).toBe(0.5);
    expect(
      s.get('rubrica_health_flagged_mean_reward{"check":"judge_text","flagged":"false"}'),
    ).toBe(0.5);
    // No judged rollout was flagged: the figure is removed, not reported as 0.
    expect(s.has('rubrica_health_flagged_mean_reward{"check":"judge_text","flagged":"true"}')).toBe(
      false,
    );
    expect(s.get('rubrica_health_flagged_share{"check":"clutter"}')).toBe(0);
  });

  it('a judged flagged rollout (--gate none) shows its reward against the rest', async () => {
    const registry = new Registry();
    const gauges = createHealthGauges(registry);
    const open = scoreRecord({ id: 'x', reward: 0.9, checks: { judge_text: true } });
    gauges.update(
      createHealthMonitor().observe([clean('a', 0.3), open], () => 'g'),
      [],
    );
    const s = await series(registry);
    expect(s.get('rubrica_health_flagged_share{"check":"judge_text"}')).toBe(0.5);
    expect(s.get('rubrica_health_flagged_mean_reward{"check":"judge_text","flagged":"true"}')).toBe(
      0.9,
    );
  });
});
