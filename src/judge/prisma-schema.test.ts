// The judges' answer schemas are exact: every answer a guided decoder may write under the
// JSON Schema sent parses, and its fraction lies in [0,1]; answers the parse must refuse
// (a count above n, a missing item, a score in place of a verdict) the schema refuses too.
import { describe, expect, it } from 'vitest';
import { randomInstance, seededRng } from '../../test/support/schema-random.ts';
import { answerJsonSchema } from '../models/answer-schema.ts';
import { type ItemAnswer, itemFraction, jointItemsSchema } from './prisma-schema.ts';

const ITEMS = [
  { key: 'shared_a', count: 1 },
  { key: 'specific_1', count: 3 },
  { key: 'specific_2', count: 12 },
];

describe('prisma judge answer schema', () => {
  it('parses every schema-allowed answer, with f in [0,1] on the item’s grid', async () => {
    const zod = jointItemsSchema(ITEMS);
    const sent = await answerJsonSchema(zod);
    expect(sent.required).toEqual(ITEMS.map((i) => i.key));
    for (let seed = 0; seed < 300; seed++) {
      const a = randomInstance(sent, seededRng(seed));
      const parsed = zod.safeParse(a);
      expect(parsed.success, `seed ${seed}`).toBe(true);
      for (const it of ITEMS) {
        const f = itemFraction(it, parsed.data![it.key]!);
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(Number.isInteger(f * it.count)).toBe(true);
      }
    }
  });

  it('refuses what it cannot score', () => {
    const zod = jointItemsSchema(ITEMS);
    const ok = {
      shared_a: { reasoning: 'r', satisfied: true },
      specific_1: { reasoning: 'r', satisfied_count: 2 },
      specific_2: { reasoning: 'r', satisfied_count: 0 },
    };
    expect(zod.safeParse(ok).success).toBe(true);
    expect(itemFraction(ITEMS[1]!, ok.specific_1 as ItemAnswer)).toBeCloseTo(2 / 3, 15);
    for (const bad of [
      { ...ok, specific_1: { reasoning: 'r', satisfied_count: 4 } },
      { ...ok, specific_1: { reasoning: 'r', satisfied_count: 1.5 } },
      { ...ok, shared_a: { reasoning: 'r', score: 1 } },
      { shared_a: ok.shared_a, specific_1: ok.specific_1 },
      { ...ok, extra: { reasoning: 'r', satisfied: true } },
    ]) {
      expect(zod.safeParse(bad).success).toBe(false);
    }
  });
});
