// The reward service with other domains: POST /v1/rewards items may carry `domain`; a dot
// graph and a python plot are rendered in their sandboxes and judged, a failing script is
// an unscoreable zero (exec_error), an unknown domain is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeByImage,
  postJson,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

describe('reward server, other domains', () => {
  let double: ModelDouble;
  let server: RealServer;
  const dir = tempDir('serve-domains');
  const rubrics = writeRubrics(dir, [['g', 'a small graph']]);

  beforeAll(async () => {
    double = await startModelDouble({ handler: judgeByImage() });
    server = await startRealServer({ judgeUrl: double.url, rubrics, dir, maxRetries: 1 });
  });
  afterAll(async () => {
    await server?.close();
    await double?.close();
  });

  it('renders and judges dot and python items; failing code is exec_error', async () => {
    const items = [
      { id: 'dot', prompt_id: 'g', completion: '```dot\ndigraph { a -> b }\n```' },
      { id: 'bare', prompt_id: 'g', domain: 'dot', completion: 'digraph { x -> y -> z }' },
      {
        id: 'py',
        prompt_id: 'g',
        completion: '```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 1])\n```',
      },
      {
        id: 'bad',
        prompt_id: 'g',
        domain: 'python',
        completion: '```python\nimport nonexistent_module\n```',
      },
    ];
    const res = await postJson(`${server.url}/v1/rewards`, { items });
    expect(res.status).toBe(200);
    const results: Json[] = (res.json as Json).results;
    expect(results.slice(0, 3).map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(results[3]).toMatchObject({ status: 'unscoreable', reason: 'exec_error', reward: 0 });
    expect(double.requests.length).toBe(3);
    const bad = await postJson(`${server.url}/v1/rewards`, {
      items: [{ id: 'x', prompt_id: 'g', domain: 'cobol', completion: 'x' }],
    });
    expect(bad.status).toBe(400);
  }, 180_000);
});
