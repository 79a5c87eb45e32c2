import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { answerGc, gc } from './answer-gc.ts';

describe('answerGc', () => {
  it('collects once the answer bytes pass the threshold, then counts again', () => {
    let runs = 0;
    const note = answerGc(10_000, () => runs++);
    note(9_999);
    expect(runs).toBe(0);
    note(1);
    expect(runs).toBe(1);
    note(5_000);
    expect(runs).toBe(1);
    note(6_000);
    expect(runs).toBe(2);
  });

  it("reaches V8's gc() in this runtime, and it runs a major collection", async () => {
    const run = gc();
    expect(typeof run).toBe('function');
    let majors = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    run?.({ type: 'major', execution: 'sync' });
    await new Promise((r) => setTimeout(r, 200));
    obs.disconnect();
    expect(majors).toBeGreaterThanOrEqual(1);
  });
});
