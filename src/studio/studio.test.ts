// The study plan: stratified sample, balanced sides, repeats and attention checks, all
// fixed by the seed.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuns, type StudioFixture } from '../../test/studio/fixture.ts';
import { buildPlan, loadItems, parseStudy } from './study.ts';

let fx: StudioFixture;
beforeAll(async () => {
  fx = await makeRuns();
});
afterAll(async () => {
  await rm(fx.root, { recursive: true, force: true });
});

describe('study plan', () => {
  it('samples per prompt, balances sides, repeats a share and inserts checks, from a seed', async () => {
    const items = await loadItems(fx.runs);
    expect(items).toHaveLength(24);
    const study = parseStudy({
      kind: 'pairwise',
      seed: 3,
      per_prompt: 2,
      raters: ['ann', 'bob'],
      repeat_share: 0.25,
      attention_checks: 2,
    });
    const plan = buildPlan(study, items);
    expect(plan.units).toHaveLength(12); // 6 prompts × 2 pairs
    for (const u of plan.units) {
      // Each pair shows the same prompt by two different runs.
      const [x, y] = u.items.map((k) => items.find((i) => i.key === k)!);
      expect(x!.prompt_id).toBe(y!.prompt_id);
      expect(x!.run).not.toBe(y!.run);
    }
    for (const [, tasks] of plan.tasks) {
      // Practice first (DEFAULT_PRACTICE screens), then the study.
      const practice = tasks.filter((t) => t.practice);
      expect(practice.map((t) => t.seq)).toEqual([0, 1]);
      const main = tasks.filter((t) => !t.repeat && t.check === null && !t.practice);
      expect(main).toHaveLength(12);
      const left = main.filter((t) => t.items[0] === plan.units[t.unit!]!.items[0]).length;
      expect(left).toBe(6); // exactly half keep the sampled order
      // …and since the sampled order sorts by run, each run is on the left in half the pairs.
      expect(main.filter((t) => t.items[0]!.startsWith('model-a/'))).toHaveLength(6);
      const repeats = tasks.filter((t) => t.repeat);
      expect(repeats).toHaveLength(3);
      for (const r of repeats) {
        const first = tasks.findIndex((t) => t.unit === r.unit && !t.repeat);
        expect(tasks.indexOf(r)).toBeGreaterThan(first);
        // Shown the other way round the second time.
        expect(r.items).toEqual([...tasks[first]!.items].reverse());
      }
      const checks = tasks.filter((t) => t.check !== null);
      expect(checks.map((c) => c.check)).toEqual(expect.arrayContaining(['blank', 'off_prompt']));
      expect(checks.find((c) => c.check === 'blank')!.items).toContain(null);
      expect(tasks.map((t) => t.seq)).toEqual(tasks.map((_, i) => i));
    }
    // Same seed, same plan; another seed, another order.
    expect(buildPlan(study, items)).toEqual(plan);
    const other = buildPlan({ ...study, seed: 4 }, items);
    expect(other.tasks.get('ann')!.map((t) => t.items)).not.toEqual(
      plan.tasks.get('ann')!.map((t) => t.items),
    );
  });

  it('practice screens use pictures the sample leaves out when there are some, and are the same for every rater', async () => {
    const items = await loadItems(fx.runs);
    const study = parseStudy({
      kind: 'pairwise',
      seed: 1,
      prompts: 3,
      raters: ['a', 'b'],
      practice: 2,
    });
    const plan = buildPlan(study, items);
    const used = new Set(plan.units.flatMap((u) => u.items));
    const [a, b] = [...plan.tasks.values()].map((ts) => ts.filter((t) => t.practice));
    expect(a).toHaveLength(2);
    expect(b).toEqual(a);
    for (const t of a!) {
      expect(t.unit).toBeNull();
      for (const k of t.items) expect(used.has(k!)).toBe(false);
    }
    // practice: 0 leaves the plan as it was before practice existed (same seed, same screens).
    const none = buildPlan({ ...study, practice: 0 }, items);
    expect(none.tasks.get('a')!.map((t) => t.items)).toEqual(
      plan.tasks
        .get('a')!
        .filter((t) => !t.practice)
        .map((t) => t.items),
    );
  });

  it('refuses a study file with unknown fields or duplicate raters', () => {
    expect(() => parseStudy({ kind: 'pairwise', colour: 1 })).toThrow(/colour/);
    expect(() => parseStudy({ raters: ['a', 'a'] })).toThrow(/distinct/);
  });
});
