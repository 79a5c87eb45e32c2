// `serve --ors` end to end in one process: the real scorer (render pool, inspection, SQLite
// cache) behind a real port, a judge double whose scores follow the picture, and the ORS
// routes read the way the ORS clients read them (src/server/ors/sse.test.ts's reader). The
// Python contract tests (integrations/python/tests/test_ors_contract.py) drive a real
// `rubrica serve --ors` process with a standard-library client written from the clients'
// sources; these pin the server's own behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOrsTasks } from '../../src/server/ors/index.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { readLikeOrsClient } from '../support/ors-reader.ts';
import {
  judgeByImage,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

const TOKEN = 'tok-ors';
let double: ModelDouble;
let server: RealServer;
let delayNext = 0;
const [icon] = fluentEmoji(1);

beforeAll(async () => {
  const dir = tempDir('ors');
  const rubrics = writeRubrics(dir, [
    ['fox', 'a red fox'],
    ['owl', 'an owl at night'],
    ['fail', 'JUDGE_FAILS on this prompt'],
  ]);
  const byImage = judgeByImage();
  double = await startModelDouble({
    handler: (req) => {
      const reply = byImage(req);
      const delayMs = delayNext;
      return { ...reply, delayMs };
    },
  });
  server = await startRealServer({
    judgeUrl: double.url,
    rubrics,
    dir,
    maxRetries: 0,
    server: {
      token: TOKEN,
      limits: { maxInFlight: 2 },
      ors: { tasks: readOrsTasks(rubrics), pingMs: 100 },
    },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await double?.close();
});

const KEY = { 'X-API-Key': TOKEN };

async function call(
  method: string,
  path: string,
  opts: { sid?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      ...KEY,
      ...(opts.sid ? { 'X-Session-ID': opts.sid } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

interface OrsResult {
  ok: boolean;
  error?: string;
  output: {
    blocks: Array<Record<string, unknown>>;
    metadata: Record<string, unknown>;
    reward: number | null;
    finished: boolean;
  };
}

/** The SSE result of a stream: the task id and the reassembled JSON of chunk + end. */
function sseResult(text: string): { taskId: string | undefined; result: OrsResult; pings: number } {
  const events = readLikeOrsClient(text);
  const taskId = events.find(([e]) => e === 'task_id')?.[1];
  const body = events
    .filter(([e]) => e === 'chunk' || e === 'end')
    .map(([, d]) => d)
    .join('');
  return { taskId, result: body ? JSON.parse(body) : null, pings: text.split(': ping').length - 1 };
}

async function openSession(taskSpec: Record<string, unknown> | { split: string; index: number }) {
  const created = await call('POST', '/create_session');
  expect(created.type).toMatch(/text\/event-stream/);
  const sid = sseResult(created.text).taskId!;
  const body = 'split' in taskSpec ? taskSpec : { task_spec: taskSpec, env_name: 'rubrica' };
  const made = await call('POST', '/create', { sid, body });
  expect(made.status, made.text).toBe(200);
  return sid;
}

describe('serve --ors', () => {
  it('lists splits, tasks and tools at bare and /rubrica/ paths alike, with env_name', async () => {
    for (const prefix of ['', '/rubrica', '/RUBRICA']) {
      const splits = await call('GET', `${prefix}/splits`);
      expect(JSON.parse(splits.text)).toEqual([{ name: 'train', type: 'train' }]);
      const tasks = JSON.parse(
        (await call('POST', `${prefix}/tasks`, { body: { split: 'train' } })).text,
      );
      expect(tasks.env_name).toBe('rubrica');
      expect(tasks.tasks.map((t: { prompt_id: string }) => t.prompt_id)).toEqual([
        'fox',
        'owl',
        'fail',
      ]);
      const one = JSON.parse(
        (await call('POST', `${prefix}/task`, { body: { split: 'train', index: 1 } })).text,
      );
      expect(one).toEqual({
        task: { prompt_id: 'owl', prompt: 'an owl at night', domain: 'svg' },
        env_name: 'rubrica',
      });
      const n = JSON.parse(
        (await call('POST', `${prefix}/num_tasks`, { body: { split: 'train' } })).text,
      );
      expect(n).toEqual({ num_tasks: 3 });
      const range = JSON.parse(
        (await call('POST', `${prefix}/task_range`, { body: { split: 'train', start: -2 } })).text,
      );
      expect(range.tasks.map((t: { prompt_id: string }) => t.prompt_id)).toEqual(['owl', 'fail']);
      const tools = JSON.parse((await call('GET', `${prefix}/tools`)).text);
      for (const t of tools.tools)
        expect(Object.keys(t).sort()).toEqual(['description', 'input_schema', 'name']);
    }
    expect((await call('GET', '/other/tools')).status).toBe(404);
    expect((await call('POST', '/tasks', { body: { split: 'nope' } })).status).toBe(400);
  });

  it('scores a submitted drawing once, then answers a resume by task id without a judge call', async () => {
    const sid = await openSession({ prompt_id: 'fox', prompt: 'a red fox', domain: 'svg' });
    const prompt = JSON.parse((await call('GET', '/prompt', { sid })).text);
    expect(prompt[0]).toMatchObject({ type: 'text', detail: null });
    expect(prompt[0].text).toContain('a red fox');
    const toolsOfTask = JSON.parse((await call('GET', '/rubrica/task_tools', { sid })).text);
    expect(toolsOfTask.tools.map((t: { name: string }) => t.name)).toEqual(['submit', 'render']);

    const before = double.requests.length;
    const first = sseResult(
      (await call('POST', '/call', { sid, body: { name: 'submit', input: { code: icon!.svg } } }))
        .text,
    );
    expect(double.requests.length - before).toBe(1);
    expect(first.result.ok).toBe(true);
    expect(Object.keys(first.result.output).sort()).toEqual([
      'blocks',
      'finished',
      'metadata',
      'reward',
    ]);
    expect(first.result.output.finished).toBe(true);
    expect(first.result.output.reward).toBeGreaterThan(0);
    expect(first.result.output.metadata.rubrica_status).toBe('ok');
    for (const b of first.result.output.blocks) expect(b).toHaveProperty('detail', null);

    // The client lost the stream and POSTs the same body with the task id it saw.
    const resumed = sseResult(
      (
        await call('POST', '/rubrica/call', {
          sid,
          body: { name: 'submit', input: { code: icon!.svg }, task_id: first.taskId },
        })
      ).text,
    );
    expect(resumed.result).toEqual(first.result);
    expect(double.requests.length - before).toBe(1);
    expect((await call('POST', '/delete', { sid })).status).toBe(200);
    expect((await call('GET', '/prompt', { sid })).status).toBe(404);
  });

  it('keeps the stream alive with pings while the judge is slow', async () => {
    const sid = await openSession({ split: 'train', index: 1 });
    delayNext = 700;
    try {
      const out = sseResult(
        (
          await call('POST', '/call', {
            sid,
            body: { name: 'submit', input: { code: fluentEmoji(2)[1]!.svg } },
          })
        ).text,
      );
      expect(out.result.output.reward).toBeGreaterThan(0);
      expect(out.pings).toBeGreaterThanOrEqual(3);
    } finally {
      delayNext = 0;
    }
  });

  it('turns a grader fault into reward null, finished, grader_error — never ok:false', async () => {
    const sid = await openSession({ prompt_id: 'fail' });
    const out = sseResult(
      (await call('POST', '/call', { sid, body: { name: 'submit', input: { code: icon!.svg } } }))
        .text,
    );
    expect(out.result.ok).toBe(true);
    expect(out.result.output).toMatchObject({
      reward: null,
      finished: true,
      metadata: { grader_error: true },
    });
  });

  it('scores an answer with no drawing as a real 0 with its reason', async () => {
    const sid = await openSession({ prompt_id: 'owl' });
    const out = sseResult(
      (
        await call('POST', '/call', {
          sid,
          body: { name: 'submit', input: { code: 'no drawing here' } },
        })
      ).text,
    );
    expect(out.result.output).toMatchObject({
      reward: 0,
      finished: true,
      metadata: { rubrica_status: 'unscoreable' },
    });
  });

  it('answers ok:false only for an unknown tool or invalid input', async () => {
    const sid = await openSession({ prompt_id: 'owl' });
    const unknown = sseResult(
      (await call('POST', '/call', { sid, body: { name: 'draw', input: {} } })).text,
    );
    expect(unknown.result).toEqual({ ok: false, error: expect.stringContaining('unknown tool') });
    const bad = sseResult(
      (await call('POST', '/call', { sid, body: { name: 'submit', input: { code: 3 } } })).text,
    );
    expect(bad.result.ok).toBe(false);
  });

  it("leaves rubrica's own routes where they were", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const comps = await fetch(`${server.url}/v1/components`, { headers: KEY });
    expect(comps.status).toBe(200);
    const rewards = await fetch(`${server.url}/v1/rewards`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: 'a', prompt_id: 'owl', completion: 'no drawing' }] }),
    });
    expect(rewards.status).toBe(200);
  });

  it('refuses unknown sessions, a wrong key and no key; accepts a bearer token too', async () => {
    expect((await call('GET', '/prompt', { sid: 'nope' })).status).toBe(404);
    expect((await call('GET', '/prompt')).status).toBe(400);
    expect((await call('GET', '/splits', { headers: { 'X-API-Key': 'wrong' } })).status).toBe(401);
    const none = await fetch(`${server.url}/splits`);
    expect(none.status).toBe(401);
    const bearer = await fetch(`${server.url}/splits`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.status).toBe(200);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('answers 503 before the stream starts when the server is full', async () => {
    delayNext = 1500;
    try {
      const sids = await Promise.all([0, 1, 2].map(() => openSession({ prompt_id: 'owl' })));
      const icons = fluentEmoji(8).slice(3);
      const results = await Promise.all(
        sids.map((sid, i) =>
          call('POST', '/call', { sid, body: { name: 'submit', input: { code: icons[i]!.svg } } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 503]);
      const refused = results.find((r) => r.status === 503)!;
      expect(refused.type).toMatch(/json/);
    } finally {
      delayNext = 0;
    }
  });
});
