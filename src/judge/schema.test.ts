// The judge's answer schemas are the contract: whatever a guided decoder may write under the
// JSON Schema sent (joint mode for every preset's items, per-item mode) parses, and what the
// parse rejects the schema rejects too (read by zod's independent JSON Schema reader).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { randomInstance, seededRng } from '../../test/support/schema-random.ts';
import { answerJsonSchema, type JsonSchema } from '../models/answer-schema.ts';
import { validateAnswer } from '../models/validate-answer.ts';
import { getPreset, PRESETS } from '../rubric/presets.ts';
import { ItemVerdictSchema, jointAnswerSchema, SCORE_GRID } from './schema.ts';

const SEEDS = 300;

describe('the score', () => {
  it('is offered as the 0.01 grid from 0 to 1, with its bounds', async () => {
    const s = (await answerJsonSchema(ItemVerdictSchema)) as {
      properties: { score: JsonSchema };
    };
    expect(s.properties.score).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    const grid = s.properties.score.enum as number[];
    expect(grid).toHaveLength(101);
    expect(grid[0]).toBe(0);
    expect(grid.at(-1)).toBe(1);
    expect(grid.map((x) => String(x).replace(/^0\./, '').length <= 2)).not.toContain(false);
    expect(grid).toEqual([...SCORE_GRID]);
  });

  it('parses any number in [0,1] an unguided model may write, off the grid too', () => {
    expect(ItemVerdictSchema.safeParse({ reasoning: '', score: 0.123 }).success).toBe(true);
  });
});

describe.each(PRESETS)('joint answer schema: %s items', (name) => {
  const items = getPreset(name).items;
  const keys = items.map((i) => i.key);

  it('names every item key in rubric order, reasoning before score, closed objects', async () => {
    const s = await answerJsonSchema(jointAnswerSchema(items));
    expect(Object.keys(s.properties as object)).toEqual(keys);
    expect(s.required).toEqual(keys);
    expect(s.additionalProperties).toBe(false);
    const first = (s.properties as Record<string, JsonSchema>)[keys[0]!]!;
    expect(Object.keys(first.properties as object)).toEqual(['reasoning', 'score']);
    expect(first).toMatchObject({ required: ['reasoning', 'score'], additionalProperties: false });
  });

  it(`parses every instance the schema allows (${SEEDS} seeds)`, async () => {
    const schema = jointAnswerSchema(items);
    const s = await answerJsonSchema(schema);
    for (let seed = 0; seed < SEEDS; seed++) {
      const v = randomInstance(s, seededRng(seed));
      const r = validateAnswer(schema, v);
      expect(r.ok, `seed ${seed}: ${r.ok ? '' : r.message}`).toBe(true);
    }
  });

  const good = () =>
    Object.fromEntries(keys.map((k, i) => [k, { reasoning: `seen ${k}`, score: i / 10 }]));
  const mutations: [string, (a: ReturnType<typeof good>) => unknown][] = [
    ['score 1.2', (a) => ({ ...a, [keys[0]!]: { reasoning: 'r', score: 1.2 } })],
    ['score -0.1', (a) => ({ ...a, [keys[1]!]: { reasoning: 'r', score: -0.1 } })],
    ['a score as a string', (a) => ({ ...a, [keys[1]!]: { reasoning: 'r', score: '0.5' } })],
    ['no reasoning', (a) => ({ ...a, [keys[2]!]: { score: 0.5 } })],
    [
      'a missing item',
      (a) => {
        const { [keys.at(-1)!]: _, ...rest } = a;
        return rest;
      },
    ],
  ];
  it.each(mutations)('the schema rejects what the parse rejects: %s', async (_, mutate) => {
    const schema = jointAnswerSchema(items);
    const check = z.fromJSONSchema((await answerJsonSchema(schema)) as never);
    expect(schema.safeParse(good()).success).toBe(true);
    expect(check.safeParse(good()).success).toBe(true);
    const bad = mutate(good());
    expect(schema.safeParse(bad).success).toBe(false);
    expect(check.safeParse(bad).success).toBe(false);
  });
});

describe('per-item answer schema', () => {
  it(`parses every instance the schema allows (${SEEDS} seeds); rejects like the parse`, async () => {
    const s = await answerJsonSchema(ItemVerdictSchema);
    for (let seed = 0; seed < SEEDS; seed++) {
      const r = validateAnswer(ItemVerdictSchema, randomInstance(s, seededRng(seed)));
      expect(r.ok, `seed ${seed}`).toBe(true);
    }
    const check = z.fromJSONSchema(s as never);
    for (const bad of [{ reasoning: 'r', score: 1.2 }, { reasoning: 'r' }, { score: 0.4 }]) {
      expect(ItemVerdictSchema.safeParse(bad).success).toBe(false);
      expect(check.safeParse(bad).success).toBe(false);
    }
  });
});
