// PrismaForge rubric synthesis over real HTTP (loopback model double) with a real SQLite
// cache: the difficulty sets the exact item budget the schema demands, shared SVG criteria
// come first, the author's answer shape is a contract (every schema-allowed answer is taken),
// malformed and failed answers are dropped with their reason, and re-runs cost no calls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorClient } from '../../test/score/support/fixtures.ts';
import {
  jsonAnswer,
  type ModelDouble,
  schemaAnswerer,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { randomInstance, seededRng } from '../../test/support/schema-random.ts';
import { answerJsonSchema, type JsonSchema } from '../models/answer-schema.ts';
import { itemsAnswerSchema } from '../rubric/prisma-answer-schema.ts';
import { DIFFICULTIES, ITEM_BUDGET } from '../rubric/prisma-budget.ts';
import { PrismaRubricSchema } from '../rubric/prisma-schema.ts';
import { validateItemsAnswer } from '../rubric/prisma-validate.ts';
import { loadSharedCriteria } from '../rubric/shared-criteria.ts';
import { openCache } from '../store/cache.ts';
import { createPrismaSynthesizer } from './prisma.ts';

const PROMPT = 'a bar chart of apples 4, pears 7 and plums 2 with a labelled y axis';
let author: ModelDouble;

beforeAll(async () => {
  author = await startModelDouble();
});
afterAll(() => author.close());
beforeEach(() => author.reset());

const criterion = (text: string, weight = 2, count = 1) => ({ criterion: text, weight, count });
const goodItems = {
  code_items: [
    criterion('The data array holds exactly apples 4, pears 7, plums 2', 3, 3),
    criterion('Bars are rect elements of equal width'),
  ],
  vision_items: [
    criterion('Three bars appear in the order apples, pears, plums', 3, 3),
    criterion('The y axis carries a visible label'),
    criterion('Category names sit under their bars', 1),
  ],
};

function scriptAuthor(difficulty: number, items: unknown = goodItems) {
  author.script((req) =>
    req.schemaName === 'difficulty'
      ? jsonAnswer({ reasoning: 'three exact bars', difficulty })
      : jsonAnswer(items),
  );
}

describe('createPrismaSynthesizer', () => {
  it('keeps a rubric: shared SVG criteria first, then the budgeted specific ones', async () => {
    scriptAuthor(1);
    const r = await createPrismaSynthesizer({ author: authorClient(author.url) }).synthesize({
      id: 'p1',
      prompt: PROMPT,
    });
    expect(PrismaRubricSchema.parse(r)).toEqual(r);
    const shared = loadSharedCriteria('svg');
    expect(r).toMatchObject({ kept: true, domain: 'svg', family: 'svg', difficulty: 1 });
    expect(r.code_items.map((i) => i.key)).toEqual([
      ...shared.code.map((i) => i.key),
      'specific_1',
      'specific_2',
    ]);
    expect(r.vision_items.filter((i) => i.origin === 'specific')).toHaveLength(3);
    expect(r.code_items.at(-2)).toMatchObject({ count: 3, weight: 3, modality: 'code' });
    expect(r.usage.calls).toBe(2);
    // Step 2's request schema demands exactly the budget of difficulty 1.
    const step2 = author.requests[1]!;
    const props = step2.schema!.properties as Record<string, JsonSchema>;
    expect(props.code_items).toMatchObject({ minItems: 2, maxItems: 2 });
    expect(props.vision_items).toMatchObject({ minItems: 3, maxItems: 3 });
    expect(step2.text).toContain(shared.vision[0]!.criterion);
  });

  it('sizes the rubric by the difficulty the author estimates (schema-driven author)', async () => {
    const answerer = schemaAnswerer({ seed: 7 });
    author.script(answerer.handler);
    const synth = createPrismaSynthesizer({ author: authorClient(author.url) });
    const seen = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const r = await synth.synthesize({
        id: `p${i}`,
        prompt: `${PROMPT} variant ${i}`,
        domain: 'vega-lite',
      });
      if (!r.kept) {
        expect(r.drop_reason, r.drop_message).toBe('malformed');
        expect(r.drop_message).toMatch(/say the same thing/);
        continue;
      }
      const budget = ITEM_BUDGET[r.difficulty as 1];
      seen.add(r.difficulty!);
      expect(r.family).toBe('chart');
      expect(r.code_items.filter((x) => x.origin === 'specific')).toHaveLength(budget.code);
      expect(r.vision_items.filter((x) => x.origin === 'specific')).toHaveLength(budget.vision);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('drops a wrong-sized or unknown-shaped answer as malformed, a failed call as author_error', async () => {
    scriptAuthor(3); // budget 4 code, 5 vision; the answer has 2 and 3
    const synth = createPrismaSynthesizer({ author: authorClient(author.url) });
    const r = await synth.synthesize({ id: 'p1', prompt: PROMPT });
    expect(r).toMatchObject({ kept: false, drop_reason: 'malformed', difficulty: 3 });
    expect(r.drop_message).toMatch(/code_items/);
    author.reset();
    author.script(() => ({ status: 500 }));
    const f = await synth.synthesize({ id: 'p2', prompt: 'another' });
    expect(f).toMatchObject({ kept: false, drop_reason: 'author_error', difficulty: null });
  });

  it('refuses a specific criterion that repeats another', async () => {
    scriptAuthor(1, {
      ...goodItems,
      code_items: [
        criterion('Bars are rect elements of equal width'),
        criterion('Bars are rect elements of equal width!'),
      ],
    });
    const r = await createPrismaSynthesizer({ author: authorClient(author.url) }).synthesize({
      id: 'p',
      prompt: PROMPT,
    });
    expect(r).toMatchObject({ kept: false, drop_reason: 'malformed' });
  });

  it('caches both author steps: a re-run makes no call', async () => {
    const cache = openCache(join(mkdtempSync(join(tmpdir(), 'prisma-synth-')), 'c.sqlite'));
    scriptAuthor(1);
    const synth = createPrismaSynthesizer({ author: authorClient(author.url), cache });
    const a = await synth.synthesize({ id: 'p1', prompt: PROMPT });
    const b = await synth.synthesize({ id: 'p1', prompt: PROMPT });
    expect(author.requests).toHaveLength(2);
    expect(b.usage.calls).toBe(0);
    expect(b.code_items).toEqual(a.code_items);
    cache.close();
  });
});

describe('the author answer schema is the validator’s contract', () => {
  it.each(DIFFICULTIES)(
    'difficulty %i: every schema-allowed answer has the right structure',
    async (d) => {
      const budget = ITEM_BUDGET[d];
      const sent = await answerJsonSchema(itemsAnswerSchema(budget));
      const shared = loadSharedCriteria('svg');
      let kept = 0;
      for (let seed = 0; seed < 150; seed++) {
        const answer = randomInstance(sent, seededRng(seed));
        const v = validateItemsAnswer(budget, PROMPT, shared, answer);
        // The only rejection left is semantic (two criteria say the same thing).
        if (!v.ok) expect(v.message, `seed ${seed}`).toMatch(/say the same thing/);
        else kept++;
      }
      expect(kept).toBeGreaterThan(100);
    },
  );

  it('the schema rejects what the validator rejects (wrong count, weight 4, extra key)', () => {
    const s = itemsAnswerSchema(ITEM_BUDGET[1]);
    expect(s.safeParse(goodItems).success).toBe(true);
    const bad = [
      { ...goodItems, code_items: goodItems.code_items.slice(1) },
      { ...goodItems, code_items: [criterion('x', 4), goodItems.code_items[1]] },
      { ...goodItems, extra: 1 },
      {
        ...goodItems,
        vision_items: [
          { ...goodItems.vision_items[0], count: 0 },
          ...goodItems.vision_items.slice(1),
        ],
      },
    ];
    for (const b of bad) {
      expect(s.safeParse(b).success).toBe(false);
      expect(validateItemsAnswer(ITEM_BUDGET[1], PROMPT, { code: [], vision: [] }, b).ok).toBe(
        false,
      );
    }
  });
});
