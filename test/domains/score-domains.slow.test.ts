// Scoring rollouts of other domains end to end: the scorer detects (or is told) the domain,
// renders it in its sandbox, and judges the picture like an SVG's; code that fails to run is
// a rule-based zero with the domain's reason and costs no judge call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRolloutScorer } from '../../src/pipeline/score.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { jointAnswer, judgeClient, rulerRubric, schemaKeys } from '../score/support/fixtures.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';

const PROMPT = 'a small flow chart';
const SCORES = [0.9, 0.8, 0.7, 0.5, 0.6, 0.4];
let double: ModelDouble;
let renderer: RenderPool;

beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 1 });
  double.script((req) =>
    jsonAnswer(jointAnswer(schemaKeys(req), SCORES.slice(0, schemaKeys(req).length))),
  );
});
afterAll(async () => {
  await Promise.all([double.close(), renderer.close()]);
});

describe('scoring other domains', () => {
  it('judges rendered dot and python pictures; failing code is an unscoreable zero', async () => {
    const s = await createRolloutScorer({
      rubrics: [rulerRubric('p', PROMPT)],
      judge: judgeClient(double.url, { maxRetries: 1 }),
      renderer,
      inspect: inspectCompletion,
      cache: false,
    });
    try {
      const recs = await s.scoreBatch([
        { id: 'dot', prompt_id: 'p', completion: 'Sure:\n```dot\ndigraph { a -> b -> c }\n```' },
        {
          id: 'py',
          prompt_id: 'p',
          completion: '```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\n```',
        },
        {
          id: 'crash',
          prompt_id: 'p',
          completion: '```python\nimport matplotlib.pyplot as plt\nraise ValueError("no")\n```',
        },
        // Told the domain, a completion with no such code is `no_code`.
        { id: 'none', prompt_id: 'p', domain: 'latex', completion: 'I cannot draw that.' },
      ]);
      const by = Object.fromEntries(recs.map((r) => [r.id, r]));
      expect(by.dot).toMatchObject({ status: 'ok' });
      expect(by.dot!.reward).toBeCloseTo(19 / 29, 12);
      expect(by.py).toMatchObject({ status: 'ok' });
      expect(by.crash).toMatchObject({ status: 'unscoreable', reason: 'exec_error', reward: 0 });
      expect(by.none).toMatchObject({ status: 'unscoreable', reason: 'no_code', reward: 0 });
      expect(double.requests.length).toBe(2);
    } finally {
      await s.close();
    }
  }, 180_000);
});
