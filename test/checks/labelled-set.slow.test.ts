// The goal of issues 11 (item 5) and 25, as a test: on the labelled set
// (test/checks/labelled-set.ts) every flag raises false positives on at most 2% of the clean
// drawings — Fluent Emoji, 457 public-domain openclipart drawings (scenes with grounds, skies,
// buildings and borders) and drawings whose prompts ask for text, repetition or full-bleed
// grounds — and catches at
// least 90% of the planted hacks of its kind. Real renders through the isolated pool; the
// table is printed so a run shows the figures, not only pass/fail.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type FlagFigures, figures, type Outcome, table } from './evaluate.ts';
import { labelledSet } from './labelled-set.ts';

const MAX_FP = 0.02;
const MIN_RECALL = 0.9;

let outcomes: Outcome[];
let rows: FlagFigures[];

beforeAll(async () => {
  outcomes = await evaluate(labelledSet());
  rows = figures(outcomes);
  console.log(`labelled set: ${outcomes.length} drawings\n${table(rows, outcomes)}`);
}, 900_000);

describe('checks on the labelled set', () => {
  it('has every family it claims, with enough drawings to measure 2%', () => {
    const clean = outcomes.filter((o) => o.item.hack === undefined);
    expect(clean.length).toBeGreaterThanOrEqual(1000);
    const families = new Set(outcomes.map((o) => o.item.family));
    for (const f of [
      'clean:emoji',
      'clean:text-asked',
      'clean:repetition-asked',
      'clean:full-bleed',
      'clean:openclipart',
      'hack:openclipart-cut',
      'hack:openclipart-clutter',
      'hack:openclipart-words',
    ])
      expect(families).toContain(f);
    for (const r of rows) expect(r.hacks).toBeGreaterThanOrEqual(60);
    // Real drawings nobody here made (issue 25): public-domain openclipart scenes and things.
    expect(
      clean.filter((o) => o.item.family === 'clean:openclipart').length,
    ).toBeGreaterThanOrEqual(400);
    // Every drawing renders except the planted empty ones (an unrendered drawing raises no
    // pixel flag and would flatter the false-positive rate).
    const unrendered = outcomes.filter(
      (o) => o.checks.find((c) => c.name === 'renders')?.value !== 1,
    );
    expect(unrendered.map((o) => o.item.id)).toEqual([]);
  });

  it('clipped: FP ≤ 2% on clean drawings, and on the openclipart scenes alone', () => {
    const r = rows.find((x) => x.flag === 'clipped')!;
    const fps = outcomes
      .filter((o) => o.item.hack === undefined && o.flags.has('clipped'))
      .map((o) => o.item.id);
    expect(r.fpRate, `clipped false positives: ${fps.slice(0, 10).join(', ')}`).toBeLessThanOrEqual(
      MAX_FP,
    );
    const openclipart = outcomes.filter((o) => o.item.family === 'clean:openclipart');
    const ocFps = openclipart.filter((o) => o.flags.has('clipped')).map((o) => o.item.id);
    expect(
      ocFps.length / openclipart.length,
      `openclipart: ${ocFps.join(', ')}`,
    ).toBeLessThanOrEqual(MAX_FP);
  });

  it('clipped: recall ≥ 90% on the subjects pushed off the frame, emoji and openclipart', () => {
    // Was 103/120 (85.8%) before issue 25's changes to the rule (docs/artifact-and-checks.md).
    const r = rows.find((x) => x.flag === 'clipped')!;
    const misses = outcomes
      .filter((o) => o.item.hack === 'clipped' && !o.flags.has('clipped'))
      .map((o) => o.item.id);
    expect(r.recall, `clipped missed: ${misses.join(', ')}`).toBeGreaterThanOrEqual(MIN_RECALL);
  });

  it.each(['text_in_image', 'clutter', 'ink_coverage'] as const)(
    '%s: FP ≤ 2% on clean drawings, recall ≥ 90% on planted hacks',
    (flag) => {
      const r = rows.find((x) => x.flag === flag)!;
      const misses = outcomes
        .filter((o) => o.item.hack === flag && !o.flags.has(flag))
        .map((o) => o.item.id);
      const fps = outcomes
        .filter((o) => o.item.hack === undefined && o.flags.has(flag))
        .map((o) => o.item.id);
      expect(
        r.fpRate,
        `${flag} false positives: ${fps.slice(0, 10).join(', ')}`,
      ).toBeLessThanOrEqual(MAX_FP);
      expect(r.recall, `${flag} missed: ${misses.slice(0, 10).join(', ')}`).toBeGreaterThanOrEqual(
        MIN_RECALL,
      );
    },
  );
});
