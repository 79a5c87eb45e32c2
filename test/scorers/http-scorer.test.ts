// The HTTP scorer client against the real reference server (integrations/python/
// scorer_server.py in --stand-in mode, spawned with python3) and against a Node loopback
// double for faults the stand-in cannot make (429 then success, malformed bodies).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpScorer } from '../../src/scorers/http-scorer.ts';

let proc: ChildProcess;
let base: string;

beforeAll(async () => {
  proc = spawn(
    'python3',
    [
      'integrations/python/scorer_server.py',
      '--stand-in',
      '--port',
      '0',
      '--quiet',
      '--max-batch',
      '8',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`scorer_server exited ${code}`)));
  });
  base = /listening on (http:\/\/[^/]+)/.exec(line)![1]!;
});
afterAll(() => {
  proc?.kill('SIGTERM');
});

/** What the stand-in computes: sha256(png + prompt), first 4 bytes / 2^32. */
function standIn(png: Buffer, prompt: string): number {
  const d = createHash('sha256')
    .update(Buffer.concat([png, Buffer.from(prompt, 'utf8')]))
    .digest();
  return d.readUInt32BE(0) / 2 ** 32;
}

function countingFetch() {
  const calls: number[] = [];
  const f: typeof fetch = async (input, init) => {
    calls.push(JSON.parse(String(init?.body)).images.length);
    return fetch(input, init);
  };
  return { f, calls };
}

const imgs = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`png-bytes-${i}`));

describe('HTTP scorer against the reference Python server', () => {
  it('splits into batches and returns every score in order', async () => {
    const { f, calls } = countingFetch();
    const scorer = createHttpScorer({
      url: `${base}/score`,
      name: 'http:stand-in',
      maxBatch: 3,
      fetch: f,
    });
    const images = imgs(7);
    const prompts = images.map((_, i) => `prompt ${i % 2}`);
    const results = await scorer.score(images, prompts);
    expect(calls.sort()).toEqual([1, 3, 3]);
    expect(results.map((r) => (r.ok ? r.value : null))).toEqual(
      images.map((im, i) => standIn(im, prompts[i]!)),
    );
  });

  it('turns a null score into that item’s error and a failed batch into errors for its items only', async () => {
    const scorer = createHttpScorer({
      url: `${base}/score`,
      maxBatch: 2,
      retries: 1,
      minRetryDelayMs: 10,
    });
    const results = await scorer.score(imgs(4), ['ok', '__null__', '__error__', 'fine']);
    expect(results[0]?.ok).toBe(true);
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'service_error' } });
    expect(results[2]).toMatchObject({ ok: false, error: { code: 'http_error' } });
    expect(results[3]).toMatchObject({ ok: false, error: { code: 'http_error' } });
    expect(results[2]!.ok === false && results[2]!.error.message).toContain(
      'stand-in asked to fail',
    );
  });

  it('times out a slow answer', async () => {
    const scorer = createHttpScorer({ url: `${base}/score`, timeoutMs: 300, retries: 0 });
    const [r] = await scorer.score(imgs(1), ['__slow__']);
    expect(r).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('does not retry a 413 (batch over the server limit)', async () => {
    const { f, calls } = countingFetch();
    const scorer = createHttpScorer({
      url: `${base}/score`,
      maxBatch: 20,
      retries: 3,
      minRetryDelayMs: 10,
      fetch: f,
    });
    const results = await scorer.score(imgs(9), new Array(9).fill('p'));
    expect(calls).toEqual([9]);
    expect(
      results.every(
        (r) => !r.ok && r.error.code === 'http_error' && r.error.message.includes('413'),
      ),
    ).toBe(true);
  });

  it('answers 400 with a readable error for a malformed request', async () => {
    const bad = await fetch(`${base}/score`, {
      method: 'POST',
      body: '{"images":["aGk="],"prompts":[]}',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: '1 images but 0 prompts' });
    const notJson = await fetch(`${base}/score`, { method: 'POST', body: 'nope' });
    expect(notJson.status).toBe(400);
    const health = await (await fetch(`${base}/healthz`)).json();
    expect(health).toMatchObject({ ok: true, model: 'stand-in', max_batch: 8 });
  });

  it('reports a refused connection as a network error', async () => {
    const scorer = createHttpScorer({
      url: 'http://127.0.0.1:9/score',
      retries: 1,
      minRetryDelayMs: 10,
    });
    const [r] = await scorer.score(imgs(1), ['p']);
    expect(r).toMatchObject({ ok: false, error: { code: 'network' } });
  });
});

describe('reference server without its model packages', () => {
  it('starts (imports are lazy) and answers each batch with the import error', async () => {
    const p = spawn(
      'python3',
      ['integrations/python/scorer_server.py', '--model', 'hpsv2', '--port', '0', '--quiet'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve) =>
        createInterface({ input: p.stdout! }).once('line', resolve),
      );
      const url = `${/listening on (http:\/\/[^/]+)/.exec(line)![1]}/score`;
      const scorer = createHttpScorer({ url, name: 'http:hpsv2', retries: 0 });
      const [r] = await scorer.score(imgs(1), ['a cat']);
      expect(r).toMatchObject({ ok: false, error: { code: 'http_error' } });
      expect(r!.ok === false && r!.error.message).toMatch(
        /HTTP 500: ModuleNotFoundError: .*(hpsv2|torch|huggingface_hub)/,
      );
    } finally {
      p.kill('SIGTERM');
    }
  });
});

describe('HTTP scorer against a scripted loopback double', () => {
  let server: Server;
  let url: string;
  const script: Array<(n: number) => [number, string]> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const n = JSON.parse(body).images.length as number;
        const step =
          script.shift() ??
          ((k: number) => [200, JSON.stringify({ scores: new Array(k).fill(0.5) })]);
        const [status, text] = step(n);
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/score`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('retries 429 and 503, then succeeds', async () => {
    script.push(
      () => [429, '{"error":"slow down"}'],
      () => [503, 'busy'],
    );
    script.push((n) => [
      200,
      JSON.stringify({ scores: Array.from({ length: n }, (_, i) => i / 10) }),
    ]);
    const scorer = createHttpScorer({ url, retries: 3, minRetryDelayMs: 5 });
    const results = await scorer.score(imgs(3), ['a', 'b', 'c']);
    expect(results).toEqual([0, 0.1, 0.2].map((value) => ({ ok: true, value })));
    expect(script).toHaveLength(0);
  });

  it('rejects answers not in the protocol’s shape without retrying', async () => {
    const scorer = createHttpScorer({ url, retries: 3, minRetryDelayMs: 5 });
    script.push(() => [200, 'this is not json']);
    expect((await scorer.score(imgs(1), ['a']))[0]).toMatchObject({
      error: { code: 'invalid_answer' },
    });
    script.push(() => [200, '{"scores":[0.1,0.2]}']);
    expect((await scorer.score(imgs(1), ['a']))[0]).toMatchObject({
      error: { code: 'invalid_answer' },
    });
    script.push(() => [200, '{"scores":["high"]}']);
    expect((await scorer.score(imgs(1), ['a']))[0]).toMatchObject({
      error: { code: 'invalid_answer' },
    });
    script.push(() => [200, '{"error":"model not loaded"}']);
    expect((await scorer.score(imgs(1), ['a']))[0]).toMatchObject({
      error: { code: 'service_error', message: 'model not loaded' },
    });
    expect(script).toHaveLength(0);
  });
});
