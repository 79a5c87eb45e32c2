// Progress off a terminal: plain lines at a steady interval with count, rate, ETA, grader
// faults and cost, and one at the end; skipped (already done) items count toward the total
// but not the rate.
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../core/usage.ts';
import { createRunProgress, formatDuration } from './progress.ts';

describe('createRunProgress off a terminal', () => {
  it('prints a line every interval and a last one on stop', async () => {
    const lines: string[] = [];
    const p = createRunProgress('score', 10, {
      tty: false,
      intervalMs: 40,
      write: (s) => lines.push(s),
    });
    p.skip(4);
    p.tick({ ...emptyUsage(), costUsd: 0.01 });
    p.tick(emptyUsage(), 'judge_error');
    await new Promise((r) => setTimeout(r, 130));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(
      /^score: 6\/10 \(60\.0%\) · [\d.]+\/s · ETA \S+ · grader faults 1 \(judge_error 1\) · cost \$0\.0100 · \S+ elapsed$/,
    );
    const before = lines.length;
    p.stop();
    p.stop();
    expect(lines.length).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.length).toBe(before + 1); // the timer is gone
    expect(p.faults).toEqual({ judge_error: 1 });
  });

  it("a shard's estimated total is shown as ~N and raised when the run goes past it", async () => {
    const lines: string[] = [];
    const p = createRunProgress('score', 4, {
      tty: false,
      intervalMs: 30,
      write: (s) => lines.push(s),
      estimated: true,
    });
    p.skip(3);
    p.tick(emptyUsage());
    p.tick(emptyUsage());
    await new Promise((r) => setTimeout(r, 70));
    // 5 done of an estimated 4: never more than 100 %, and never 100 % while it runs.
    expect(lines[0]).toMatch(/^score: 5\/~6 \(83\.3%\) · /);
    p.tick(emptyUsage());
    p.stop();
    expect(lines.at(-1)).toMatch(/^score: 6\/~6 \(100\.0%\) · /);
    for (const l of lines) expect(Number(/\((\d+\.\d)%\)/.exec(l)?.[1])).toBeLessThanOrEqual(100);
  });

  it('prints nothing when the interval is 0', () => {
    const lines: string[] = [];
    const p = createRunProgress('eval', 5, {
      tty: false,
      intervalMs: 0,
      write: (s) => lines.push(s),
    });
    p.tick(emptyUsage());
    p.stop();
    expect(lines).toEqual([]);
  });

  it('formats durations', () => {
    expect(formatDuration(5)).toBe('5s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(7260)).toBe('2h01m');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('?');
  });
});
