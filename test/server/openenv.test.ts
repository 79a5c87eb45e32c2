// `serve --openenv` in one process: the real scorer behind a real port, a judge double whose
// scores follow the picture, the OpenEnv WebSocket driven with the `ws` client the way
// OpenEnv's EnvClient drives it (huggingface/OpenEnv src/openenv/core/env_client.py at
// 385de5e: one message, one answer, 60 s to answer), and the stateless HTTP routes. The
// Python contract tests (test_openenv_contract.py) drive a real process with a
// standard-library client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readOrsTasks } from '../../src/server/ors/index.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import {
  judgeByImage,
  postJson,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

let double: ModelDouble;
let server: RealServer;
let rubricsFile: string;
let delayNext = 0;
const icons = fluentEmoji(6);

beforeAll(async () => {
  const dir = tempDir('openenv');
  const rubrics = writeRubrics(dir, [
    ['fox', 'a red fox'],
    ['fail', 'JUDGE_FAILS on this prompt'],
  ]);
  rubricsFile = rubrics;
  const byImage = judgeByImage();
  double = await startModelDouble({ handler: (req) => ({ ...byImage(req), delayMs: delayNext }) });
  server = await startRealServer({
    judgeUrl: double.url,
    rubrics,
    dir,
    maxRetries: 0,
    server: {
      limits: { maxInFlight: 3 },
      openenv: { tasks: readOrsTasks(rubrics) },
    },
  });
  // A cold render worker and tokenizer take seconds on a loaded machine: warm them before
  // the deadline is measured.
  await postJson(`${server.url}/step`, { action: { code: icons[5]!.svg, prompt_id: 'fox' } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await double?.close();
});

interface Answer {
  type: string;
  data: Record<string, unknown> & {
    observation?: Record<string, unknown>;
    reward?: number | null;
    done?: boolean;
  };
}

/** A socket with one-message-one-answer calls, as EnvClient._send_and_receive. */
async function connect(path = '/ws', base = server.url) {
  const ws = new WebSocket(base.replace('http', 'ws') + path);
  const inbox: string[] = [];
  const waiters: Array<(s: string) => void> = [];
  ws.on('message', (m) => {
    const w = waiters.shift();
    if (w) w(m.toString());
    else inbox.push(m.toString());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () =>
    new Promise<Answer>((resolve) => {
      const got = inbox.shift();
      if (got !== undefined) resolve(JSON.parse(got));
      else waiters.push((s) => resolve(JSON.parse(s)));
    });
  return {
    ws,
    next,
    async send(msg: unknown): Promise<Answer> {
      ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
      return next();
    },
  };
}

describe('serve --openenv', () => {
  it('runs reset, step, state and close over /ws, components as observation fields', async () => {
    const c = await connect();
    const reset = await c.send({ type: 'reset', data: { prompt_id: 'fox' } });
    expect(reset.type).toBe('observation');
    expect(reset.data).toMatchObject({ reward: null, done: false });
    expect(reset.data.observation).toMatchObject({ prompt_id: 'fox', status: 'ready' });
    const step = await c.send({ type: 'step', data: { code: icons[0]!.svg } });
    expect(step.type).toBe('observation');
    expect(step.data.done).toBe(true);
    expect(typeof step.data.reward).toBe('number');
    expect(step.data.observation).toMatchObject({ status: 'ok', grader_error: false });
    expect(Object.keys(step.data.observation!.components as object).length).toBeGreaterThan(0);
    const state = await c.send({ type: 'state' });
    expect(state).toMatchObject({ type: 'state', data: { step_count: 1, prompt_id: 'fox' } });
    const closed = new Promise((resolve) => c.ws.once('close', resolve));
    c.ws.send(JSON.stringify({ type: 'close' }));
    await closed;

    // The stateless HTTP step answers exactly as the socket's did (the same picture, cached).
    const http = await postJson(`${server.url}/step`, {
      action: { code: icons[0]!.svg, prompt_id: 'fox' },
    });
    expect(http.status).toBe(200);
    expect(http.json).toEqual(step.data);
  });

  it('answers each error with its code and keeps the socket', async () => {
    const c = await connect();
    expect((await c.send('{not json')).data.code).toBe('INVALID_JSON');
    expect((await c.send({ type: 'dance' })).data.code).toBe('UNKNOWN_TYPE');
    expect((await c.send({ type: 'step', data: { code: '<svg/>' } })).data.code).toBe(
      'VALIDATION_ERROR',
    );
    expect((await c.send({ type: 'reset', data: { prompt_id: 'nope' } })).data.code).toBe(
      'VALIDATION_ERROR',
    );
    await c.send({ type: 'reset', data: { index: 0 } });
    expect((await c.send({ type: 'step', data: { svg: 1 } })).data.code).toBe('VALIDATION_ERROR');
    c.ws.close();
  });

  it('answers a grader fault as reward null with grader_error, never 0', async () => {
    const c = await connect();
    await c.send({ type: 'reset', data: { prompt_id: 'fail' } });
    const step = await c.send({ type: 'step', data: { code: icons[1]!.svg } });
    expect(step.data).toMatchObject({ reward: null, done: true });
    expect(step.data.observation).toMatchObject({ grader_error: true, status: 'grader_error' });
    c.ws.close();
  });

  it('answers a slow judge by the deadline as reason "deadline"; the answer lands in the cache', async () => {
    // A server of its own with a short step deadline (the default is 55 s).
    const short = await startRealServer({
      judgeUrl: double.url,
      rubrics: rubricsFile,
      dir: tempDir('openenv-deadline'),
      maxRetries: 0,
      server: { openenv: { tasks: readOrsTasks(rubricsFile), stepDeadlineMs: 1500 } },
    });
    const c = await connect('/ws', short.url);
    try {
      await c.send({ type: 'reset', data: { prompt_id: 'fox' } });
      delayNext = 6000;
      const calls = double.requests.length;
      const late = await c.send({ type: 'step', data: { code: icons[2]!.svg } });
      expect(late.data).toMatchObject({ reward: null, done: true });
      expect(late.data.observation).toMatchObject({ reason: 'deadline', grader_error: true });
      delayNext = 0;
      // The judge call was not cancelled: asking again is answered by it (in flight, then
      // from the cache), never by a second judge call.
      let again: Answer | undefined;
      for (let i = 0; i < 30; i++) {
        await c.send({ type: 'reset', data: { prompt_id: 'fox' } });
        again = await c.send({ type: 'step', data: { code: icons[2]!.svg } });
        if (typeof again.data.reward === 'number') break;
      }
      expect(typeof again?.data.reward).toBe('number');
      expect(double.requests.length - calls).toBe(1);
    } finally {
      delayNext = 0;
      c.ws.close();
      await short.close();
    }
  }, 90_000);

  it('refuses episodes past --max-in-flight with CAPACITY_REACHED', async () => {
    const open = await Promise.all([connect(), connect(), connect()]);
    const extra = await connect();
    const first = await extra.next();
    expect(first).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED' } });
    for (const c of open) c.ws.close();
  });

  it('serves /health, /schema and /metadata', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'healthy' });
    const schema = (await (await fetch(`${server.url}/schema`)).json()) as Record<string, unknown>;
    expect(Object.keys(schema).sort()).toEqual(['action', 'observation', 'state']);
    const meta = (await (await fetch(`${server.url}/metadata`)).json()) as { name: string };
    expect(meta.name).toBe('rubrica');
    // rubrica's own routes stay where they were.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/components`)).status).toBe(200);
  });
});
