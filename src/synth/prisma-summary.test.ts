// The closing summary of a PrismaForge synthesis run: counts, drop reasons, kept rubrics by
// difficulty in order, and the author's summed usage.
import { describe, expect, it } from 'vitest';
import { formatPrismaSynthSummary } from './prisma-summary.ts';

const usage = (calls: number, cost: number | null = 0.001 * calls) => ({
  calls,
  inputTokens: 100 * calls,
  outputTokens: 10 * calls,
  costUsd: cost,
  latencyMs: 5,
});

describe('formatPrismaSynthSummary', () => {
  it('counts kept and dropped, drop reasons, difficulties in order, and the usage', () => {
    const text = formatPrismaSynthSummary([
      { kept: true, difficulty: 3, usage: usage(2) },
      { kept: true, difficulty: 1, usage: usage(2) },
      { kept: true, difficulty: 3, usage: usage(2) },
      { kept: false, drop_reason: 'author_error', usage: usage(1) },
      { kept: false, usage: usage(0) },
    ] as never);
    expect(text.split('\n')).toEqual([
      'prisma rubrics 5: 3 kept, 2 dropped',
      'dropped by reason: author_error 1, unknown 1',
      'kept by difficulty: 1: 1, 3: 2',
      '7 model calls, 700 input + 70 output tokens, $0.0070',
    ]);
  });

  it('says nothing of drops or difficulties when there are none', () => {
    expect(formatPrismaSynthSummary([])).toBe(
      'prisma rubrics 0: 0 kept, 0 dropped\n0 model calls, 0 input + 0 output tokens, $0.0000',
    );
  });
});
