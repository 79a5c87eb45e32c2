// The author's answer schema is the contract: the JSON Schema sent with step 2 carries every
// structural rule of the validator, for every preset. Property-style: whatever a guided
// decoder may write under the schema (arbitrary text included) validates; what the validator
// rejects for its structure, the schema (read by zod's independent JSON Schema reader)
// rejects too.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { randomInstance, seededRng } from '../../test/support/schema-random.ts';
import { answerJsonSchema, type JsonSchema } from '../models/answer-schema.ts';
import { type AuthorAnswer, authorAnswerSchema } from './answer-schema.ts';
import { BAND_RANGES, getPreset, PRESETS } from './presets.ts';
import { validateAuthorAnswer } from './validate.ts';

const PROMPT = 'a lighthouse on a cliff at dusk';
const SEEDS = 300;

async function sent(name: (typeof PRESETS)[number]): Promise<JsonSchema> {
  return answerJsonSchema(authorAnswerSchema(getPreset(name)));
}

describe.each(PRESETS)('author answer schema: %s', (name) => {
  const preset = getPreset(name);
  const keys = preset.items.map((s) => s.key);

  it('names every item key, in the preset order, required, and nothing else', async () => {
    const s = await sent(name);
    expect(Object.keys(s.properties as object)).toEqual(keys);
    expect(s.required).toEqual(keys);
    expect(s.additionalProperties).toBe(false);
    for (const k of keys) {
      const item = (s.properties as Record<string, JsonSchema>)[k]!;
      expect(item).toMatchObject({
        type: 'object',
        required: ['title', 'description', 'bands'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1 },
          description: { type: 'string', minLength: 1 },
          bands: {
            type: 'array',
            minItems: BAND_RANGES.length,
            maxItems: BAND_RANGES.length,
            items: { type: 'string', minLength: 1 },
          },
        },
      });
    }
  });

  it(`validates every instance the schema allows (${SEEDS} seeds)`, async () => {
    const s = await sent(name);
    for (let seed = 0; seed < SEEDS; seed++) {
      const answer = randomInstance(s, seededRng(seed)) as AuthorAnswer;
      const r = validateAuthorAnswer(preset, PROMPT, answer);
      expect(r.ok, `seed ${seed}: ${r.ok ? '' : r.message}`).toBe(true);
      if (!r.ok) continue;
      // Structure from the preset (ruler: weights 5,5,5,4,5,5), text from the answer.
      expect(r.items.map((i) => [i.key, i.axis, i.weight])).toEqual(
        preset.items.map((p) => [p.key, p.axis, p.weight]),
      );
      for (const it of r.items) {
        expect(it.title).toBe(answer[it.key]!.title.trim());
        expect(it.bands.map((b) => b.range)).toEqual([...BAND_RANGES]);
      }
    }
  });

  // Distinct content words per item, so the one semantic check (overlap) stays quiet.
  const WORDS = ['amber', 'basalt', 'cobalt', 'driftwood', 'ember', 'fennel', 'granite'];
  const good = (): AuthorAnswer =>
    Object.fromEntries(
      preset.items.map((p, i) => [
        p.key,
        {
          title: `${WORDS[i]}`,
          description: `A ${WORDS[i]}ish ${WORDS[i]} detail.`,
          bands: BAND_RANGES.map((b) => `${WORDS[i]} in band ${b}`),
        },
      ]),
    );
  const first = keys[0]!;
  const mutations: [string, (a: AuthorAnswer) => unknown][] = [
    ['a wrong key', (a) => ({ ...a, [`${first}_x`]: a[first] })],
    [
      'a renamed key',
      (a) => {
        const { [keys[1]!]: moved, ...rest } = a;
        return { ...rest, overall_beauty: moved };
      },
    ],
    [
      `${keys.length - 1} items`,
      (a) => {
        delete a[keys.at(-1)!];
        return a;
      },
    ],
    [
      '4 bands',
      (a) => {
        a[first]!.bands.pop();
        return a;
      },
    ],
    [
      '6 bands',
      (a) => {
        a[first]!.bands.push('one more');
        return a;
      },
    ],
    [
      'an empty title',
      (a) => {
        a[first]!.title = '';
        return a;
      },
    ],
    [
      'an empty band',
      (a) => {
        a[first]!.bands[4] = '';
        return a;
      },
    ],
    ['a number for text', (a) => ({ ...a, [first]: { ...a[first], description: 7 } })],
    [
      'the old array shape',
      (a) => ({ items: Object.entries(a).map(([key, v]) => ({ key, ...v })) }),
    ],
  ];
  it.each(mutations)('the schema rejects what the validator rejects: %s', async (_, mutate) => {
    const check = z.fromJSONSchema((await sent(name)) as never);
    expect(validateAuthorAnswer(preset, PROMPT, good()).ok).toBe(true);
    expect(check.safeParse(good()).success).toBe(true);
    const bad = mutate(good());
    expect(validateAuthorAnswer(preset, PROMPT, bad).ok).toBe(false);
    expect(check.safeParse(bad).success).toBe(false);
  });
});
