// createRolloutScorer end to end: real completions (Fluent Emoji SVGs), the real render
// pool, real SQLite and a judge over loopback HTTP. Exact reward arithmetic, every
// unscoreable reason, caching across runs, dedupe within a batch, axis ablation, rubric
// lookup and the universal reward.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import {
  createRolloutScorer,
  type RolloutScorerOptions,
  ScorerConfigError,
} from '../../src/pipeline/score.ts';
import type { RolloutInput } from '../../src/pipeline/types.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { getPreset } from '../../src/rubric/presets.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import {
  jointAnswer,
  judgeClient,
  RULER_KEYS,
  rulerRubric,
  schemaKeys,
} from './support/fixtures.ts';

const ICONS = fluentEmoji(60).map((c) => c.svg);
const fenced = (svg: string, prose = 'Here is the SVG:') => `${prose}\n\`\`\`svg\n${svg}\n\`\`\``;
const PROMPT_A = 'a red fox sitting in snow';
const PROMPT_B = 'a blue bicycle';
const RUBRICS = [rulerRubric('fox', PROMPT_A), rulerRubric('bike', PROMPT_B)];
const SCORES = [0.9, 0.8, 0.7, 0.5, 0.6, 0.4]; // R = 19/29 (see below)

let double: ModelDouble;
let renderer: RenderPool;
const tmpCache = () => join(mkdtempSync(join(tmpdir(), 'rubrica-score-')), 'cache.sqlite');

function scorer(extra: Partial<RolloutScorerOptions> = {}) {
  return createRolloutScorer({
    rubrics: RUBRICS,
    judge: judgeClient(double.url, { maxRetries: 1 }),
    renderer,
    inspect: inspectCompletion,
    cache: false,
    ...extra,
  });
}

beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 2 });
});
afterAll(async () => {
  await Promise.all([double.close(), renderer.close()]);
});
beforeEach(() => {
  double.reset();
  double.script((req) =>
    jsonAnswer(jointAnswer(schemaKeys(req), SCORES.slice(0, schemaKeys(req).length))),
  );
});

describe('createRolloutScorer', () => {
  it('scores a rollout: R = Σ w·s / Σ w, exactly', async () => {
    const s = await scorer();
    const [rec] = await s.scoreBatch([
      { id: 'r1', prompt_id: 'fox', completion: fenced(ICONS[3]!) },
    ]);
    // 5·.9 + 5·.8 + 5·.7 + 4·.5 + 5·.6 + 5·.4 = 4.5+4+3.5+2+3+2 = 19; Σw = 29
    expect(rec!.reward).toBeCloseTo(19 / 29, 12);
    expect(rec).toMatchObject({
      id: 'r1',
      prompt_id: 'fox',
      status: 'ok',
      reward_kind: 'ruler',
      cached: false,
    });
    expect(rec!.criteria.map((c) => [c.key, c.weight, c.score])).toEqual(
      RULER_KEYS.map((k, i) => [k, [5, 5, 5, 4, 5, 5][i], SCORES[i]]),
    );
    expect(rec!.checks.renders).toBe(true);
    expect(rec!.usage.calls).toBe(1);
    expect(typeof rec!.render_ms).toBe('number');
    const req = double.requests[0]!;
    expect(req.images).toHaveLength(1);
    expect(req.images[0]).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(req.text).toContain(PROMPT_A);
    await s.close();
  });

  it('gives each unscoreable rollout 0 and its reason, without judge calls, in input order', async () => {
    const s = await scorer();
    const items: RolloutInput[] = [
      { id: 'a', prompt_id: 'fox', completion: 'I would rather describe a fox in words.' },
      {
        id: 'b',
        prompt_id: 'fox',
        completion:
          '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"',
      },
      {
        id: 'c',
        prompt_id: 'fox',
        completion: fenced('<svg xmlns="http://www.w3.org/2000/svg"><g><rect></svg>'),
      },
      {
        id: 'd',
        prompt_id: 'fox',
        completion: fenced('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'),
      },
      { id: 'e', prompt_id: 'nope', completion: fenced(ICONS[4]!) },
    ];
    const recs = await s.scoreBatch(items);
    expect(recs.map((r) => [r.id, r.status, r.reason, r.reward])).toEqual([
      ['a', 'unscoreable', 'no_svg', 0],
      ['b', 'unscoreable', 'truncated', 0],
      ['c', 'unscoreable', 'parse_error', 0],
      ['d', 'unscoreable', 'blank', 0],
      ['e', 'unscoreable', 'no_rubric', 0],
    ]);
    expect(recs.every((r) => r.criteria.length === 0 && r.message)).toBe(true);
    expect(recs[3]!.checks.blank).toBe(true);
    expect(double.requests).toHaveLength(0);
    await s.close();
  });

  it('judges blank pictures when asked to', async () => {
    const s = await scorer({ blankPolicy: 'judge' });
    const [rec] = await s.scoreBatch([
      {
        id: 'd',
        prompt_id: 'fox',
        completion: fenced('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'),
      },
    ]);
    expect(rec!.status).toBe('ok');
    expect(double.requests).toHaveLength(1);
    await s.close();
  });

  it('reports judge_error (not a bad drawing) when the judge stays invalid', async () => {
    double.script(() => jsonAnswer(jointAnswer(RULER_KEYS, [0.9, 1.7, 0.7, 0.5, 0.6, 0.4])));
    const s = await scorer();
    const [rec] = await s.scoreBatch([
      { id: 'j', prompt_id: 'fox', completion: fenced(ICONS[5]!) },
    ]);
    expect(rec).toMatchObject({ status: 'grader_error', reason: 'judge_error', reward: 0 });
    expect(rec!.message).toMatch(/^invalid_answer/);
    expect(rec!.usage.calls).toBe(2);
    expect(rec!.checks.renders).toBe(true);
    await s.close();
  });

  it('makes zero model calls when the same rollouts are scored again', async () => {
    const cache = tmpCache();
    const items = [0, 1, 2, 3].map((i) => ({
      id: `c${i}`,
      prompt_id: i % 2 ? 'bike' : 'fox',
      completion: fenced(ICONS[10 + i]!),
    }));
    const first = await (await scorer({ cache })).scoreBatch(items);
    expect(double.requests).toHaveLength(4);
    const s2 = await scorer({ cache });
    const second = await s2.scoreBatch(items);
    expect(double.requests).toHaveLength(4);
    expect(second.map((r) => r.cached)).toEqual([true, true, true, true]);
    expect(second.map((r) => r.usage.calls)).toEqual([0, 0, 0, 0]);
    expect(second.map((r) => r.reward)).toEqual(first.map((r) => r.reward));
    await s2.close();
  });

  it('judges identical pictures in one batch once', async () => {
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES), { delayMs: 80 }));
    const s = await scorer({ cache: tmpCache() });
    const svg = ICONS[20]!;
    const recs = await s.scoreBatch([
      { id: 'x1', prompt_id: 'fox', completion: fenced(svg) },
      { id: 'x2', prompt_id: 'fox', completion: fenced(svg, 'Sure! Drawing now.') },
      { id: 'x3', prompt_id: 'fox', completion: svg },
      { id: 'x4', prompt_id: 'bike', completion: fenced(svg) }, // other rubric: its own call
    ]);
    expect(double.requests).toHaveLength(2);
    expect(recs.map((r) => r.reward)).toEqual(Array(4).fill(recs[0]!.reward));
    // Whichever of x1–x3 finished rendering first made the call; the other two shared it.
    const fresh = recs.filter((r) => !r.cached).map((r) => r.id);
    expect(fresh).toHaveLength(2);
    expect(fresh).toContain('x4');
    expect(recs.reduce((n, r) => n + r.usage.calls, 0)).toBe(2);
    await s.close();
  });

  it('--drop-axis removes the axis from the rubric the judge sees and from the reward', async () => {
    const s = await scorer({ dropAxis: 'visual' });
    const [rec] = await s.scoreBatch([
      { id: 'v', prompt_id: 'fox', completion: fenced(ICONS[6]!) },
    ]);
    const keys = schemaKeys(double.requests[0]!);
    expect(keys).toEqual([
      'concept_recognisability',
      'key_parts',
      'finish_craftsmanship',
      'stylistic_coherence',
    ]);
    // judge gave .9, .8, .7, .5 to the four remaining items: (4.5+4+3.5+2.5)/20
    expect(rec!.reward).toBeCloseTo(14.5 / 20, 12);
    await s.close();
  });

  it('finds a rubric by prompt text after whitespace normalisation', async () => {
    const s = await scorer();
    const [rec] = await s.scoreBatch([
      { id: 't', prompt: `  a red   fox\n sitting in snow `, completion: fenced(ICONS[7]!) },
    ]);
    expect(rec).toMatchObject({ status: 'ok', prompt_id: 'fox' });
    await s.close();
  });

  it('per-item mode from the batch options', async () => {
    double.script(() => jsonAnswer({ reasoning: 'ok', score: 0.5 }));
    const s = await scorer();
    const [rec] = await s.scoreBatch(
      [{ id: 'p', prompt_id: 'bike', completion: fenced(ICONS[8]!) }],
      {
        mode: 'per-item',
      },
    );
    expect(double.requests).toHaveLength(6);
    expect(rec!.reward).toBeCloseTo(0.5, 12);
    await s.close();
  });

  it('universal reward: the fixed rubric, prompt text from the rollout or the rubrics file', async () => {
    const s = await scorer({ rubrics: undefined, reward: 'universal' });
    const recs = await s.scoreBatch([
      { id: 'u1', prompt: PROMPT_B, completion: fenced(ICONS[9]!) },
      { id: 'u2', prompt_id: 'fox', completion: fenced(ICONS[9]!) },
    ]);
    expect(schemaKeys(double.requests[0]!)).toEqual([
      'prompt_fit',
      'visual_quality',
      'composition',
      'rendering_cleanliness',
      'style',
    ]);
    // equal weights: (.9+.8+.7+.5+.6)/5
    expect(recs[0]).toMatchObject({ status: 'ok', reward_kind: 'universal' });
    expect(recs[0]!.reward).toBeCloseTo(3.5 / 5, 12);
    expect(recs[1]).toMatchObject({ status: 'unscoreable', reason: 'no_rubric' });
    const withFile = await scorer({ reward: 'universal' });
    const [r3] = await withFile.scoreBatch([
      { id: 'u3', prompt_id: 'fox', completion: fenced(ICONS[9]!) },
    ]);
    expect(r3!.status).toBe('ok');
    expect(double.requests.at(-1)!.text).toContain(PROMPT_A);
    await s.close();
    await withFile.close();
  });

  it('rubric-s: the −2 text penalty subtracts without growing the denominator', async () => {
    const skel = getPreset('rubric-s').items;
    const rs = {
      ...rulerRubric('fox-s', PROMPT_A),
      preset: 'rubric-s' as const,
      items: skel.map((it) => ({
        key: it.key,
        axis: it.axis,
        title: it.title,
        description: it.focus,
        weight: it.weight,
        bands: ['0.9-1.0', '0.7-0.8', '0.4-0.6', '0.1-0.3', '0'].map((range) => ({
          range,
          guide: range,
        })),
      })),
    };
    // Penalty fully present: (5+5+5+5+4 − 2·1) / 24 = 22/24. A ruler rubric for the same
    // prompt exists too; reward rubric-s must pick the rubric-s one.
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), [1, 1, 1, 1, 1, 1])));
    const s = await scorer({ rubrics: [...RUBRICS, rs], reward: 'rubric-s', renderer: undefined });
    const [rec] = await s.scoreBatch([
      { id: 'rs', prompt: PROMPT_A, completion: fenced(ICONS[11]!) },
    ]);
    expect(schemaKeys(double.requests[0]!)).toEqual(skel.map((i) => i.key));
    expect(rec).toMatchObject({ status: 'ok', reward_kind: 'rubric-s', prompt_id: 'fox-s' });
    expect(rec!.reward).toBeCloseTo(22 / 24, 12);
    expect(rec!.criteria.at(-1)).toMatchObject({ key: 'text_penalty', weight: -2, score: 1 });
    await s.close();
  });

  it('builds its judge client from a provider:model spec', async () => {
    const s = await scorer({
      judge: 'vllm:Qwen/Qwen3-VL-8B-Instruct',
      judgeOptions: { baseUrl: double.url, env: {}, maxRetries: 0 },
    });
    const [rec] = await s.scoreBatch([
      { id: 'spec', prompt_id: 'fox', completion: fenced(ICONS[12]!) },
    ]);
    expect(rec!.status).toBe('ok');
    expect(double.requests[0]!.model).toBe('Qwen/Qwen3-VL-8B-Instruct');
    await s.close();
  });

  it('refuses configurations that cannot work', async () => {
    await expect(scorer({ reward: 'hybrid' })).rejects.toBeInstanceOf(ScorerConfigError);
    await expect(scorer({ rubrics: undefined })).rejects.toMatchObject({ code: 'no_rubrics' });
    await expect(scorer({ judge: undefined })).rejects.toMatchObject({ code: 'no_judge' });
    const s = await scorer();
    await expect(s.scoreBatch([], { reward: 'hybrid' })).rejects.toMatchObject({
      code: 'hybrid_unavailable',
    });
    await s.close();
  });
});
