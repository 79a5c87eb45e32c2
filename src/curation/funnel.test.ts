import { describe, expect, it } from 'vitest';
import { formatFunnel, funnel, funnelHtml } from './funnel.ts';

describe('the curation funnel', () => {
  it('counts per source and per domain (svg when a decision names none)', () => {
    const f = funnel([
      { source: 'web', domain: 'python', decision: 'kept' },
      { source: 'web', domain: 'python', decision: 'unexecutable' },
      { source: 'gh', domain: 'dot', decision: 'recovered' },
      { source: 'gh', decision: 'discarded' },
      { source: 'gh', domain: 'dot', decision: 'grader_error' },
    ]);
    expect(f.sources.map((r) => [r.source, r.raw, r.executed, r.scored])).toEqual([
      ['gh', 3, 3, 2],
      ['web', 2, 1, 1],
    ]);
    expect(f.domains).toEqual([
      expect.objectContaining({ source: 'dot', raw: 2, recovered: 1, pending: 1 }),
      expect.objectContaining({ source: 'python', raw: 2, executed: 1, kept_directly: 1 }),
      expect.objectContaining({ source: 'svg', raw: 1, discarded: 1 }),
    ]);
    expect(f.total).toMatchObject({ raw: 5, executed: 4, scored: 3, pending: 1 });
    expect(formatFunnel(f)).toMatch(/^source\s+raw[\s\S]*\n\ndomain\s+raw[\s\S]*\npython\s+2\s+1/);
    expect(funnelHtml(f)).toContain('<h2>Per domain</h2>');
  });
});
