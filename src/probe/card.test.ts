// The health card drawn from a probe report (no browser: the Chromium checks are in
// test/probe/probe.slow.test.ts): a hack probe that could not be tested reads "not testable"
// with a notice, thumbnails are shown large, and the mean-change bars carry their scale.
import { describe, expect, it } from 'vitest';
import { hackResult } from './analyse.ts';
import { renderHealthCard } from './card.ts';
import { DEFAULT_THRESHOLDS, PROBE_SCHEMA, type ProbeReport } from './types.ts';

const spec = { id: 'hack.prompt_text', family: 'hack' as const, title: 't', expectation: 'e' };
const ok = (reward: number) => ({ reward, status: 'ok' as const });

function report(base: number, probed: number): ProbeReport {
  const pairs = ['a', 'b', 'c'].map((id) => ({ id, prompt_id: id, base, probed: ok(probed) }));
  return {
    schema: PROBE_SCHEMA,
    created_at: '2026-01-01T00:00:00Z',
    verdict: 'pass',
    judge: 'j',
    reward: 'ruler',
    mode: 'joint',
    repeats: 1,
    seed: 1,
    pictures: { rollouts: 3, used: 3, skipped: {} },
    tolerance: 0.02,
    thresholds: DEFAULT_THRESHOLDS,
    grader_faults: { scorings: 6, faults: 0, by_reason: {} },
    probes: [hackResult(spec, pairs, 0.02, DEFAULT_THRESHOLDS)],
    examples: {
      'hack.prompt_text': {
        id: 'a',
        original: 'data:image/png;base64,AA',
        probed: 'data:image/png;base64,AA',
      },
    },
    elapsed_ms: 1,
  };
}

describe('health card', () => {
  it('shows a saturated hack probe as not testable, with a notice, never as pass', () => {
    const html = renderHealthCard(report(0.993, 0.993));
    expect(html).toContain('data-verdict="not_testable"');
    expect(html).toMatch(/class="verdict v-not_testable">not testable</);
    expect(html).toMatch(/1 hack probe\(s\) could not be tested/);
    expect(html).toMatch(/1 not testable/);
    expect(html).toMatch(/room to rise <b>0\.007<\/b>/);
  });

  it('draws readable thumbnails and labelled mean-change bars', () => {
    const html = renderHealthCard(report(0.5, 0.6));
    const side = /\.ex img\{width:(\d+)px;height:(\d+)px/.exec(html);
    expect(Number(side?.[1])).toBeGreaterThanOrEqual(160);
    expect(Number(side?.[2])).toBeGreaterThanOrEqual(160);
    expect(html).toContain('<figcaption>original</figcaption>');
    const bar = /<svg class="bar"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(bar).toContain('>mean +0.100<');
    for (const tick of ['>−1<', '>0<', '>+1<']) expect(bar).toContain(tick);
    expect(bar).toContain('noise tolerance ±0.020');
  });
});
