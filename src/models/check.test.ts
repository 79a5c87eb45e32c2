// checkModel over the double: a model that sees the picture, one that does not, one that fails.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { checkModel, formatModelCheck } from './check.ts';
import { createModelClient } from './client.ts';

let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble();
});
afterAll(() => double.close());
beforeEach(() => double.reset());

const client = () =>
  createModelClient('vllm:vl', { role: 'judge', baseUrl: double.url, maxRetries: 0, env: {} });

describe('checkModel', () => {
  it('passes when the answer validates and names the painted colour', async () => {
    double.enqueue(jsonAnswer({ colour: 'Red' }));
    const c = await checkModel(client());
    expect(c).toMatchObject({ ok: true, seesImage: true, answer: { colour: 'Red' } });
    const req = double.requests[0]!;
    expect(req.images).toHaveLength(1);
    expect(req.images[0]).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(req.schema?.required).toEqual(['colour']);
    // A caching proxy in front of the model (rubrica judge-proxy) must not answer a check.
    expect(req.headers['cache-control']).toBe('no-cache');
    expect(formatModelCheck(c)).toMatch(/status: {4}ok/);
  });

  it('fails when the model names another colour (it did not see the image)', async () => {
    double.enqueue(jsonAnswer({ colour: 'blue' }));
    const c = await checkModel(client());
    expect(c).toMatchObject({ ok: false, seesImage: false });
    expect(formatModelCheck(c)).toMatch(/NOT seen/);
  });

  it('sends no image in text-only mode', async () => {
    double.enqueue(jsonAnswer({ colour: 'red' }));
    const c = await checkModel(client(), { image: false });
    expect(c).toMatchObject({ ok: true, seesImage: null });
    expect(double.requests[0]!.images).toEqual([]);
  });

  it('reports the call error', async () => {
    double.enqueue({ status: 404, body: '{"error":{"message":"model vl not found"}}' });
    const c = await checkModel(client());
    expect(c).toMatchObject({ ok: false, error: { code: 'http_error', status: 404 } });
    expect(formatModelCheck(c)).toMatch(/http_error 404/);
  });
});
