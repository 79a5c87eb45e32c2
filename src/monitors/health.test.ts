import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import type { ScoreRecord } from '../core/record.ts';
import { summarizeRun } from '../eval/summary.ts';
import { checkAlerts, DEFAULT_ALERTS, parseAlertThresholds } from './alerts.ts';
import { applyAlertThresholds } from './eval-health.ts';
import { batchHealth } from './health.ts';
import { createHealthMonitor, relativeSlope } from './monitor.ts';

const rec = (
  reward: number,
  o: { fault?: boolean; text?: boolean; clutter?: boolean; tokens?: number; svg?: number } = {},
): ScoreRecord =>
  scoreRecord({
    reward: o.fault ? 0 : reward,
    status: o.fault ? 'grader_error' : 'ok',
    ...(o.fault ? { reason: 'judge_error' as const } : {}),
    reward_kind: 'universal',
    checks: {
      text_in_image: o.text ?? false,
      clutter: o.clutter ?? false,
      output_tokens: o.tokens ?? 100,
      svg_tokens: o.svg ?? 80,
    },
  });

describe('batch health', () => {
  it('counts flat groups over measured rewards only, faults apart', () => {
    const records = [rec(0.5), rec(0.505), rec(0.9, { fault: true }), rec(0.2), rec(0.8), rec(0.3)];
    const groups = ['a', 'a', 'a', 'b', 'b', 'c'];
    const h = batchHealth(records, (i) => groups[i]!, 0.01);
    // a: 0.5 and 0.505 (the fault is not a measurement) → flat; b spread; c has one rollout.
    expect(h).toMatchObject({ groups: 2, flat_groups: 1, flat_group_share: 0.5 });
    expect(h).toMatchObject({ rollouts: 6, measured: 5, grader_faults: 1 });
    expect(h.grader_fault_share).toBeCloseTo(1 / 6);
  });

  it('takes flags and lengths from every rollout (no judge needed), rewards from measured ones', () => {
    const records = [
      rec(0.9, { clutter: true, fault: true, tokens: 900 }),
      rec(0.7, { clutter: true }),
      rec(0.2),
    ];
    const h = batchHealth(records, (i) => `g${i}`);
    expect(h.clutter.share).toBeCloseTo(2 / 3);
    expect(h.clutter.flagged).toBe(2);
    expect(h.clutter.mean_reward_flagged).toBe(0.7);
    expect(h.completion_tokens.mean).toBeCloseTo((900 + 100 + 100) / 3);
  });

  it('shows a hack that pays: flagged rollouts out-earn the rest, and the alert fires', () => {
    const records = [
      rec(0.9, { clutter: true, tokens: 3000, svg: 2900 }),
      rec(0.8, { clutter: true, tokens: 2000, svg: 1900 }),
      rec(0.4),
      rec(0.3),
    ];
    const h = batchHealth(records, (i) => `g${i}`);
    expect(h.clutter).toMatchObject({ share: 0.5, flagged: 2 });
    expect(h.clutter.mean_reward_flagged).toBeCloseTo(0.85);
    expect(h.clutter.mean_reward_unflagged).toBeCloseTo(0.35);
    expect(h.text_in_image.mean_reward_flagged).toBeNull();
    expect(h.completion_tokens.mean).toBe(1300);
    expect(h.completion_tokens.p95).toBeGreaterThan(2000);
    const names = checkAlerts(h, null, DEFAULT_ALERTS).map((a) => a.alert);
    expect(names).toEqual(['clutter_share', 'flagged_reward_premium']);
  });

  it('makes flat groups and flagged/unflagged means of judged rewards, never of rule-based zeros alone', () => {
    // The judge never answered: only rule-based zeros (blank, no SVG) and grader faults.
    const zero = (reason: 'blank' | 'no_svg', clutter = false) =>
      scoreRecord({
        reward: 0,
        status: 'unscoreable',
        reason,
        reward_kind: 'universal',
        checks: { text_in_image: false, clutter, output_tokens: 100, svg_tokens: 0 },
      });
    const down = [
      zero('blank'),
      zero('no_svg', true),
      rec(0, { fault: true }),
      zero('blank'),
      zero('no_svg'),
    ];
    const groups = ['a', 'a', 'a', 'b', 'b'];
    const h = batchHealth(down, (i) => groups[i]!);
    expect(h).toMatchObject({ judged: 0, groups: 0, flat_groups: 0, rule_zero_groups: 2 });
    expect(h.flat_group_share).toBeNull();
    expect(h.clutter).toMatchObject({
      flagged: 1,
      mean_reward_flagged: null,
      mean_reward_unflagged: null,
      judged_unflagged: 0,
    });
    expect(checkAlerts(h, null, DEFAULT_ALERTS).map((a) => a.alert)).not.toContain(
      'flat_group_share',
    );
    // With judged rollouts, a group counts once it has one; the rule zeros it holds are rewards GRPO sees.
    const mixed = [rec(0.6), zero('blank'), rec(0.4), rec(0.4), zero('blank'), zero('no_svg')];
    const g2 = ['a', 'a', 'b', 'b', 'c', 'c'];
    const m = batchHealth(mixed, (i) => g2[i]!);
    expect(m).toMatchObject({ judged: 3, groups: 2, flat_groups: 1, rule_zero_groups: 1 });
    expect(m.clutter.mean_reward_unflagged).toBeCloseTo((0.6 + 0.4 + 0.4) / 3, 12);
    expect(m.clutter.judged_unflagged).toBe(3);
  });

  it('parses alert thresholds and refuses unknown names', () => {
    expect(parseAlertThresholds('flat_group_share=0.3, clutter_share=0').flat_group_share).toBe(
      0.3,
    );
    expect(parseAlertThresholds(undefined)).toEqual(DEFAULT_ALERTS);
    expect(() => parseAlertThresholds('flatness=1')).toThrow(/flat_group_share/);
    expect(() => parseAlertThresholds('clutter_share=x')).toThrow(/bad alert/);
  });
});

describe('running monitor', () => {
  it('measures relative growth per step', () => {
    expect(relativeSlope([100, 100])).toBeNull();
    expect(relativeSlope([100, 100, 100])).toBe(0);
    expect(relativeSlope([90, 100, 110])).toBeCloseTo(0.1);
  });

  it('reports an alert once when it starts, again only after it cleared', () => {
    const started: string[] = [];
    const m = createHealthMonitor({ onAlert: (a) => started.push(a.alert) });
    const flat = [rec(0.5), rec(0.5)];
    const spread = [rec(0.1), rec(0.9)];
    const same = () => 'p';
    expect(m.observe(flat, same).alerts.map((a) => a.alert)).toEqual(['flat_group_share']);
    m.observe(flat, same);
    expect(started).toEqual(['flat_group_share']);
    expect(m.observe(spread, same).alerts).toEqual([]);
    m.observe(flat, same);
    expect(started).toEqual(['flat_group_share', 'flat_group_share']);
    expect(m.last?.step).toBe(4);
  });

  it('sees completion length creeping up over the window', () => {
    const m = createHealthMonitor({ window: 4 });
    let last = m.observe([rec(0.2, { tokens: 400 }), rec(0.8, { tokens: 400 })], () => 'p');
    for (const t of [500, 700, 1000, 1400]) {
      last = m.observe([rec(0.2, { tokens: t }), rec(0.8, { tokens: t })], () => 'p');
    }
    expect(last.running.steps).toBe(4);
    expect(last.running.completion_tokens.mean).toBe(900);
    expect(last.running.growth.completion!).toBeGreaterThan(0.2);
    expect(last.alerts.map((a) => a.alert)).toContain('completion_length_growth');
  });
});

describe('eval summary health', () => {
  it('puts the figures and alerts in each reward summary; thresholds can be changed', () => {
    const records = [0.5, 0.5, 0.2, 0.7].map((r, i) => ({
      id: `r${i}`,
      prompt_id: i < 2 ? 'p1' : 'p2',
      prompt: 'x',
      run: 'run',
      scores: { universal: rec(r, { text: i === 3 }) },
    }));
    const s = summarizeRun(records, { resamples: 10 });
    const h = s.rewards.universal!.health;
    expect(h).toMatchObject({ groups: 2, flat_groups: 1, flat_group_share: 0.5 });
    expect(h.text_in_image.share).toBe(0.25);
    expect(h.alerts.map((a) => a.alert)).toEqual(['text_in_image_share', 'flagged_reward_premium']);
    applyAlertThresholds(s.rewards, {
      ...DEFAULT_ALERTS,
      flat_group_share: 0.4,
      text_in_image_share: 1,
      flagged_reward_premium: 1,
    });
    expect(h.alerts.map((a) => a.alert)).toEqual(['flat_group_share']);
  });
});
