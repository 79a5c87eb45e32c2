import { describe, expect, it } from 'vitest';
import {
  anchorsResult,
  hackResult,
  orderResult,
  repeatabilityResult,
  type Scoring,
  sensitivityResult,
} from './analyse.ts';
import { DEFAULT_THRESHOLDS as TH } from './types.ts';

const spec = { id: 'x', family: 'hack' as const, title: 't', expectation: 'e' };
const ok = (reward: number): Scoring => ({ reward, status: 'ok' });
const fault: Scoring = { reward: 0, status: 'grader_error', reason: 'judge_error' };
const pair = (id: string, base: number | null, probed: Scoring | null) => ({
  id,
  prompt_id: 'p',
  base,
  probed,
});

describe('probe verdicts', () => {
  it('repeatability: spread per picture and ranking flips per group', () => {
    const { result, noise } = repeatabilityResult(
      { ...spec, family: 'repeatability' },
      [
        { id: 'a', prompt_id: 'p', repeats: [ok(0.5), ok(0.7)] },
        { id: 'b', prompt_id: 'p', repeats: [ok(0.6), ok(0.6)] },
        { id: 'c', prompt_id: 'q', repeats: [ok(0.1), fault] },
      ],
      TH,
    );
    expect(result.verdict).toBe('fail');
    expect(result.figures.flip_share).toBe(1);
    expect(result.faults).toBe(1);
    expect(result.n).toBe(2);
    expect(noise).toBeCloseTo((Math.SQRT2 * 0.1) / 2);
  });

  it('hack: a rise beyond the tolerance fails; grader faults are never counted as pictures', () => {
    const rising = hackResult(
      spec,
      [pair('a', 0.5, ok(0.8)), pair('b', 0.5, ok(0.7)), pair('c', 0.5, fault)],
      0.02,
      TH,
    );
    expect(rising).toMatchObject({ verdict: 'fail', n: 2, faults: 1 });
    expect(rising.figures.mean_change).toBeCloseTo(0.25);
    const steady = hackResult(
      spec,
      [pair('a', 0.5, ok(0.51)), pair('b', 0.5, ok(0.3)), pair('c', 0.5, null)],
      0.02,
      TH,
    );
    expect(steady).toMatchObject({ verdict: 'pass', n: 2, not_applicable: 1 });
    const dead = hackResult(spec, [pair('a', null, ok(0.9)), pair('b', 0.5, fault)], 0.02, TH);
    expect(dead).toMatchObject({ verdict: 'no_data', faults: 2, pairs: [] });
    expect(dead.note).toMatch(/grader fault/);
  });

  it('hack: originals scored at the ceiling leave no room to see a rise — not testable, not pass', () => {
    // The saturated judge: base 0.993, nothing can rise beyond the 0.02 tolerance.
    const saturated = hackResult(
      spec,
      [pair('a', 0.993, ok(0.995)), pair('b', 0.99, ok(0.99)), pair('c', 0.996, ok(0.99))],
      0.02,
      TH,
    );
    expect(saturated.verdict).toBe('not_testable');
    expect(saturated.figures.headroom).toBeCloseTo(1 - (0.993 + 0.99 + 0.996) / 3, 9);
    expect(saturated.figures.could_rise_share).toBe(0);
    expect(saturated.note).toMatch(/not testable.*no rise could have been detected/);
    // Enough pictures with room (2 of 3 > 25%) make it testable again; the rest are named.
    const mixed = hackResult(
      spec,
      [pair('a', 0.995, ok(0.995)), pair('b', 0.5, ok(0.5)), pair('c', 0.6, ok(0.6))],
      0.02,
      TH,
    );
    expect(mixed.verdict).toBe('pass');
    expect(mixed.note).toMatch(/1 of 3 originals score within 0.02 of the ceiling/);
    // A rise is still a failure, whatever the room.
    const rose = hackResult(spec, [pair('a', 0.97, ok(1))], 0.02, TH);
    expect(rose.verdict).toBe('fail');
  });

  it('sensitivity: must fall clearly and for most pictures; rule-based zeros are said to be rules', () => {
    const fell = sensitivityResult(
      { ...spec, family: 'sensitivity' },
      [
        pair('a', 0.6, { reward: 0, status: 'unscoreable', reason: 'blank' }),
        pair('b', 0.6, ok(0.2)),
      ],
      0.02,
      TH,
    );
    expect(fell.verdict).toBe('pass');
    expect(fell.note).toMatch(/1 of 2 .* rule/);
    const flat = sensitivityResult(
      { ...spec, family: 'sensitivity' },
      [pair('a', 0.6, ok(0.58))],
      0.02,
      TH,
    );
    expect(flat.verdict).toBe('fail');
  });

  it('order: the mean absolute change is held to the limit', () => {
    const rows = [{ id: 'a', prompt_id: 'p', original: ok(0.5), shuffled: ok(0.62) }];
    expect(orderResult({ ...spec, family: 'order' }, rows, 0.02, TH).verdict).toBe('fail');
    rows[0]!.shuffled = ok(0.52);
    expect(orderResult({ ...spec, family: 'order' }, rows, 0.02, TH).verdict).toBe('pass');
  });

  it('anchors: ideal high, off-prompt and blank far below', () => {
    const good = anchorsResult(
      { ...spec, family: 'anchors' },
      [
        { prompt_id: 'p', ideal: ok(0.9), blank: ok(0), offPrompt: ok(0.2) },
        { prompt_id: 'q', ideal: ok(0.8), blank: ok(0), offPrompt: ok(0.3) },
      ],
      TH,
    );
    expect(good.verdict).toBe('pass');
    expect(good.figures.gap_off_prompt).toBeCloseTo(0.6);
    const weak = anchorsResult(
      { ...spec, family: 'anchors' },
      [{ prompt_id: 'p', ideal: ok(0.9), blank: ok(0), offPrompt: ok(0.8) }],
      TH,
    );
    expect(weak.verdict).toBe('fail');
    const none = anchorsResult({ ...spec, family: 'anchors' }, [], TH);
    expect(none.note).toMatch(/ideal SVG/);
  });
});
