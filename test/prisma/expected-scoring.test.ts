// PrismaForge's code and vision judges under expected scoring (issue 37): each yes/no verdict
// is read as P(true) and each count of n as Σ p·(i/n) over the judge's logprobs at the
// verdict's token, found by character offset in the returned stream (the JSON answer is
// parsed once, by the client). The double answers in vLLM's shape — the sampled token first,
// a token the schema forbids among the runners-up — so the allowed answers are renormalised.
// The reward is λc·S_code + λv·S_vision of those expectations, equal to the hand computation
// to 1e-12; every criterion keeps its distribution, the record says `scoring: expected` and
// carries an interval; greedy takes the written verdicts; expected without logprobs faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import type { JudgingStrategy } from '../../src/judge/strategy.ts';
import { createRolloutScorer } from '../../src/pipeline/score.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import type { PrismaItem } from '../../src/rubric/prisma-schema.ts';
import { judgeClient } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { prismaRubric } from './fixtures.ts';

const ICON = fluentEmoji(20)[5]!.svg;
const PROMPT = 'a smiling face with two eyes and a mouth';
const RUBRIC = prismaRubric('face', PROMPT);

// The laws at the verdict token: `"` is what an unguided sampler would also consider there.
const YES_NO: [string, number][] = [
  ['true', 0.7],
  ['false', 0.2],
  ['"', 0.1],
];
// A count of 3: "7" is out of range (the grammar forbids it).
const COUNT3: [string, number][] = [
  ['3', 0.5],
  ['2', 0.3],
  ['0', 0.15],
  ['7', 0.05],
];
/** f by hand: the allowed answers' mass renormalised, Σ p·f. */
const F_YES_NO = 0.7 / (0.7 + 0.2);
const F_COUNT3 = (0.5 * 1 + 0.3 * (2 / 3) + 0.15 * 0) / (0.5 + 0.3 + 0.15);
const fOf = (it: PrismaItem) => (it.count === 1 ? F_YES_NO : F_COUNT3);
const S = (items: PrismaItem[]) =>
  items.reduce((s, it) => s + it.weight * fOf(it), 0) / items.reduce((s, it) => s + it.weight, 0);

const tok = (token: string, logprob: number) => ({
  token,
  logprob,
  bytes: [...Buffer.from(token)],
});

/** A joint verdict answer with vLLM-shaped logprobs (or none when not asked). */
function handler(req: DoubleRequest) {
  const props = (req.schema?.properties ?? {}) as Record<
    string,
    { properties?: Record<string, unknown> }
  >;
  const value: Record<string, Record<string, unknown>> = {};
  const laws: [string, number][][] = [];
  for (const [key, p] of Object.entries(props)) {
    const yesNo = 'satisfied' in (p.properties ?? {});
    value[key] = yesNo
      ? { reasoning: 'ok', satisfied: true }
      : { reasoning: 'ok', satisfied_count: 3 };
    laws.push(yesNo ? YES_NO : COUNT3);
  }
  const content = JSON.stringify(value);
  if (req.body.logprobs !== true) return { content, logprobs: null };
  // Every verdict its own token; the rest of the text certain.
  let k = 0;
  const tokens = content
    .split(/(?<="satisfied":)(true|false)|(?<="satisfied_count":)(\d)/)
    .filter(Boolean)
    .map((t, i, all) => {
      const verdict =
        /^(true|false|\d)$/.test(t) && /"satisfied(_count)?":$/.test(all[i - 1] ?? '');
      if (!verdict) return { ...tok(t, 0), top_logprobs: [tok(t, 0)] };
      const law = laws[k++]!;
      return {
        ...tok(t, Math.log(law.find(([x]) => x === t)![1])),
        top_logprobs: law.map(([x, p]) => tok(x, Math.log(p))),
      };
    });
  return { content, logprobs: { content: tokens } };
}

let double: ModelDouble;
let renderer: RenderPool;
beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 1 });
});
afterAll(() => Promise.all([double.close(), renderer.close()]));
beforeEach(() => {
  double.reset();
  double.script(handler);
});

async function scoreOnce(judging: Partial<JudgingStrategy>, script = handler) {
  double.script(script);
  const s = await createRolloutScorer({
    prismaRubrics: [RUBRIC],
    judge: judgeClient(double.url, { maxRetries: 0 }),
    renderer,
    inspect: inspectCompletion,
    cache: false,
    reward: 'prisma',
    judging,
  });
  try {
    const [rec] = await s.scoreBatch([
      { id: 'r1', prompt_id: 'face', completion: `\`\`\`svg\n${ICON}\n\`\`\`` },
    ]);
    return rec!;
  } finally {
    await s.close();
  }
}

describe('PrismaForge judges with expected scoring', () => {
  it('reads every verdict as Σ p·f and gives the hand-computed reward to 1e-12', async () => {
    const rec = await scoreOnce({ scoring: 'expected' });
    expect(rec.status, rec.message).toBe('ok');
    for (const r of double.requests) {
      expect(r.body.logprobs).toBe(true);
      expect(r.body.top_logprobs).toBe(20);
    }
    const hand = 0.3 * S(RUBRIC.code_items) + 0.7 * S(RUBRIC.vision_items);
    expect(Math.abs(rec.reward - hand)).toBeLessThan(1e-12);
    expect(rec.scoring).toBe('expected');
    const items = [...RUBRIC.code_items, ...RUBRIC.vision_items];
    expect(rec.criteria).toHaveLength(items.length);
    for (const [i, c] of rec.criteria.entries()) {
      const it = items[i]!;
      expect(Math.abs(c.score! - fOf(it))).toBeLessThan(1e-12);
      const want =
        it.count === 1
          ? [
              [0, 0.2 / 0.9],
              [1, 0.7 / 0.9],
            ]
          : [
              [0, 0.15 / 0.95],
              [2 / 3, 0.3 / 0.95],
              [1, 0.5 / 0.95],
            ];
      expect(c.distribution!.map((m) => m.score)).toEqual(want.map(([v]) => v));
      for (const [k, m] of c.distribution!.entries()) expect(m.p).toBeCloseTo(want[k]![1]!, 12);
    }
    // An interval around the reward from the verdicts' distributions, at the default level.
    expect(rec.interval_level).toBe(0.9);
    expect(rec.interval![0]).toBeLessThan(rec.reward);
    expect(rec.interval![1]).toBeGreaterThan(rec.reward);
  });

  it('greedy takes the written verdicts; auto reads logprobs when they come back', async () => {
    const greedy = await scoreOnce({ scoring: 'greedy' });
    expect(greedy.scoring).toBe('greedy');
    expect(greedy.reward).toBeCloseTo(1, 12); // every verdict written true / 3 of 3
    for (const r of double.requests) expect(r.body.logprobs).toBeUndefined();
    const auto = await scoreOnce({ scoring: 'auto' });
    expect(auto.scoring).toBe('expected');
    expect(
      Math.abs(auto.reward - (0.3 * S(RUBRIC.code_items) + 0.7 * S(RUBRIC.vision_items))),
    ).toBeLessThan(1e-12);
  });

  it('without logprobs: auto falls back to the written verdicts, expected is a grader fault', async () => {
    const none = (req: DoubleRequest) =>
      handler({ ...req, body: { ...req.body, logprobs: false } });
    const auto = await scoreOnce({ scoring: 'auto' }, none);
    expect(auto).toMatchObject({ status: 'ok', scoring: 'greedy' });
    expect(auto.reward).toBeCloseTo(1, 12);
    const expected = await scoreOnce({ scoring: 'expected' }, none);
    expect(expected.status).toBe('grader_error');
    expect(expected.message).toMatch(/no usable logprobs/);
  });
});
