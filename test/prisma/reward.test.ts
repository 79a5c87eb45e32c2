// The prisma and direct rewards through createRolloutScorer: real completions (Fluent Emoji
// SVGs), the real render pool, real SQLite, and judges over loopback HTTP answering with
// whatever their JSON Schema allows. Exact elastic arithmetic from the recorded answers,
// what each judge sees (code without picture, picture without code), per-item mode,
// caching, grader faults, rule-based zeros, and rubrics files shared with RULER.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRolloutScorer, type RolloutScorerOptions } from '../../src/pipeline/score.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { jointAnswer, judgeClient, rulerRubric, schemaKeys } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import {
  jsonAnswer,
  type ModelDouble,
  type SchemaAnswerer,
  schemaAnswerer,
  startModelDouble,
} from '../support/model-double.ts';
import { groupScore, isCodeJudge, isDirectJudge, isVisionJudge, prismaRubric } from './fixtures.ts';

const ICON = fluentEmoji(20)[5]!.svg;
const fenced = (svg: string) => `Here:\n\`\`\`svg\n${svg}\n\`\`\``;
const PROMPT = 'a smiling face with two eyes and a mouth';
const RUBRIC = prismaRubric('face', PROMPT);

let double: ModelDouble;
let renderer: RenderPool;
let answerer: SchemaAnswerer;

function scorer(extra: Partial<RolloutScorerOptions> = {}) {
  return createRolloutScorer({
    prismaRubrics: [RUBRIC],
    judge: judgeClient(double.url, { maxRetries: 1 }),
    renderer,
    inspect: inspectCompletion,
    cache: false,
    reward: 'prisma',
    ...extra,
  });
}

beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 1 });
});
afterAll(() => Promise.all([double.close(), renderer.close()]));
beforeEach(() => {
  double.reset();
  answerer = schemaAnswerer({ seed: 3 });
  double.script(answerer.handler);
});

const answerOf = (pred: (r: (typeof answerer.answers)[number]['req']) => boolean) =>
  answerer.answers.find((a) => pred(a.req))!.value as Record<string, Record<string, unknown>>;

describe('reward prisma', () => {
  it('is λc·S_code + λv·S_vision of the judges’ answers; each judge sees only its evidence', async () => {
    const s = await scorer();
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await s.close();
    expect(double.requests).toHaveLength(2);
    const code = double.requests.find(isCodeJudge)!;
    const vision = double.requests.find(isVisionJudge)!;
    expect(code.images).toHaveLength(0);
    expect(code.text).toContain(ICON.slice(0, 60));
    expect(vision.images).toHaveLength(1);
    expect(vision.text).not.toContain(ICON.slice(0, 60));
    const sc = groupScore(RUBRIC.code_items, answerOf(isCodeJudge));
    const sv = groupScore(RUBRIC.vision_items, answerOf(isVisionJudge));
    expect(rec).toMatchObject({ reward_kind: 'prisma', status: 'ok', prompt_id: 'face' });
    expect(rec!.reward).toBeCloseTo(0.3 * sc + 0.7 * sv, 12);
    expect(rec!.criteria.map((c) => c.key)).toEqual([
      ...RUBRIC.code_items.map((i) => `code.${i.key}`),
      ...RUBRIC.vision_items.map((i) => `vision.${i.key}`),
    ]);
    expect(rec!.criteria[0]).toMatchObject({ source: 'code_judge', axis: 'code' });
    expect(rec!.usage.calls).toBe(2);
  });

  it('asks one call per item in per-item mode, same arithmetic', async () => {
    const s = await scorer({ mode: 'per-item' });
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await s.close();
    expect(double.requests).toHaveLength(RUBRIC.code_items.length + RUBRIC.vision_items.length);
    expect(rec!.status).toBe('ok');
    for (const c of rec!.criteria) expect(c.score).not.toBeNull();
  });

  it('adds the holistic term for a family with λh > 0 (webui: 0.3, 0.5, 0.2)', async () => {
    const s = await scorer({ prismaRubrics: [prismaRubric('face', PROMPT, 'webui')] });
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await s.close();
    expect(double.requests).toHaveLength(3);
    const sc = groupScore(RUBRIC.code_items, answerOf(isCodeJudge));
    const sv = groupScore(RUBRIC.vision_items, answerOf(isVisionJudge));
    const h = (answerOf(isDirectJudge) as unknown as { score: number }).score;
    expect(rec!.reward).toBeCloseTo(0.3 * sc + 0.5 * sv + 0.2 * h, 12);
  });

  it('caches both judges: the same rollout again makes no call', async () => {
    const cache = join(mkdtempSync(join(tmpdir(), 'prisma-reward-')), 'c.sqlite');
    const a = await scorer({ cache });
    const [first] = await a.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await a.close();
    const b = await scorer({ cache });
    const [again] = await b.scoreBatch([{ id: 'r2', prompt_id: 'face', completion: fenced(ICON) }]);
    await b.close();
    expect(double.requests).toHaveLength(2);
    expect(again).toMatchObject({ reward: first!.reward, cached: true });
    expect(again!.usage.calls).toBe(0);
  });

  it('a judge that keeps failing is a grader fault, never a measured 0', async () => {
    double.script((req) => (isVisionJudge(req) ? { status: 500 } : answerer.handler(req)));
    const s = await scorer();
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await s.close();
    expect(rec).toMatchObject({ status: 'grader_error', reason: 'judge_error', reward: 0 });
  });

  it('gives rule-based zeros without a call: no SVG, truncated, no rubric', async () => {
    const s = await scorer();
    const recs = await s.scoreBatch([
      { id: 'a', prompt_id: 'face', completion: 'I cannot draw.' },
      {
        id: 'b',
        prompt_id: 'face',
        completion: '```svg\n<svg xmlns="http://www.w3.org/2000/svg"><circle',
      },
      { id: 'c', prompt_id: 'other', completion: fenced(ICON) },
    ]);
    await s.close();
    expect(double.requests).toHaveLength(0);
    expect(recs.map((r) => [r.status, r.reason])).toEqual([
      ['unscoreable', 'no_svg'],
      ['unscoreable', 'truncated'],
      ['unscoreable', 'no_rubric'],
    ]);
  });

  it('reads prisma and ruler rubrics from one rubrics file, each reward its own lines', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'prisma-rubrics-')), 'rubrics.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify(rulerRubric('face', PROMPT))}\n${JSON.stringify(RUBRIC)}\n`,
    );
    double.script((req) =>
      req.text.includes('Rubric:')
        ? jsonAnswer(jointAnswer(schemaKeys(req), [1, 1, 1, 1, 1, 1]))
        : answerer.handler(req),
    );
    const s = await scorer({
      prismaRubrics: undefined,
      rubrics: file,
      reward: ['ruler', 'prisma'],
    });
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt_id: 'face', completion: fenced(ICON) }]);
    await s.close();
    expect(rec!.rewards?.ruler).toMatchObject({ status: 'ok', reward: 1 });
    expect(rec!.rewards?.prisma?.status).toBe('ok');
  });
});

describe('reward direct', () => {
  it('is the holistic judge’s one score, from the code and the picture', async () => {
    const s = await scorer({ reward: 'direct', prismaRubrics: undefined });
    const [rec] = await s.scoreBatch([{ id: 'r1', prompt: PROMPT, completion: fenced(ICON) }]);
    await s.close();
    expect(double.requests).toHaveLength(1);
    const req = double.requests[0]!;
    expect(req.images).toHaveLength(1);
    expect(req.text).toContain(ICON.slice(0, 60));
    const { score } = answerer.answers[0]!.value as { score: number };
    expect(rec).toMatchObject({ reward_kind: 'direct', status: 'ok', reward: score });
  });
});
