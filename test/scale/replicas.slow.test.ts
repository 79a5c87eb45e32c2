// Two real `rubrica serve` replicas sharing a real Redis (answer cache and judge budget),
// behind a real nginx running examples/scale/nginx.conf, with the model double as the judge
// counting its calls per picture: a batch through nginx is judged once, a re-score through
// any replica or nginx asks the judge nothing, and a replica SIGKILLed mid-batch loses no
// rollout when the Python client fails over (RUBRICA_URL="A,B"): what it had judged is
// answered from the shared cache; only the call the crash cut off is asked again.
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeByImage,
  postJson,
  type ServeProcess,
  spawnServe,
  tempDir,
  writeRubrics,
} from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../support/model-double.ts';
import { type NginxProcess, startNginx } from '../support/nginx.ts';
import { type RedisProcess, startRedis } from '../support/redis-server.ts';

const icons = fluentEmoji(24);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
const pythonDir = new URL('../../integrations/python', import.meta.url).pathname;

let redis: RedisProcess;
let double: Awaited<ReturnType<typeof startModelDouble>>;
let a: ServeProcess;
let b: ServeProcess;
let lb: NginxProcess;
let args: string[];
const byImage = new Map<string, number>();

beforeAll(async () => {
  redis = await startRedis();
  const answer = judgeByImage();
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      // The start-up check and /readyz probe (models/check.ts) are not judge calls.
      if (req.text.includes('{"colour"')) return { content: '{"colour": "red"}' };
      const img = req.images[0] ?? '';
      if (img) byImage.set(img, (byImage.get(img) ?? 0) + 1);
      // The slow rubric keeps a batch on its replica long enough to kill it mid-step.
      return { ...answer(req), delayMs: req.text.includes('SLOWJUDGE') ? 5000 : 30 };
    },
  });
  const dir = tempDir('scale-replicas');
  const rubrics = writeRubrics(dir, [
    ['fox', 'a red fox'],
    ['owl', 'SLOWJUDGE an owl'],
  ]);
  args = [
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--cache',
    redis.url,
    '--concurrency',
    '4',
    '--render-workers',
    '1',
  ];
  a = await spawnServe(args);
  b = await spawnServe(args);
  lb = await startNginx([a.url, b.url].map((u) => new URL(u).host));
}, 90_000);

afterAll(async () => {
  for (const s of [a, b]) if (s && s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.all([a?.exited, b?.exited]);
  await lb?.stop();
  await double?.close();
  await redis?.stop();
});

/** POST /v1/rewards with the Python client over `urls` (RUBRICA_URL), no retries. */
async function pythonPost(urls: string, items: unknown[]) {
  const script = [
    'import json, sys',
    'from rubrica.client import RubricaClient',
    'c = RubricaClient(retries=0)',
    'out = c.post("/v1/rewards", {"items": json.load(sys.stdin)})',
    'print(json.dumps({"results": out["results"], "failovers": c.connection.failovers}))',
  ].join('\n');
  const py = spawn('/usr/bin/python3', ['-c', script], {
    env: { ...process.env, PYTHONPATH: pythonDir, RUBRICA_URL: urls },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  py.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  py.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const code = await new Promise<number | null>((r) => {
    py.once('exit', r);
    py.stdin.end(JSON.stringify(items));
  });
  if (code !== 0) throw new Error(`python client failed (${code}): ${err}`);
  return JSON.parse(out) as Results & { failovers: number };
}

const calls = () => [...byImage.values()].reduce((s, n) => s + n, 0);
type Results = { results: Array<{ id: string; status: string; reward: number }> };

describe('replicas behind nginx sharing Redis', () => {
  it('judges a batch once, and a re-score through any replica asks the judge nothing', async () => {
    // /readyz of a replica with a shared cache answers through the balancer too.
    expect((await fetch(`${lb.url}/readyz`)).status).toBe(200);
    const items = icons
      .slice(0, 6)
      .map((ic, i) => ({ id: `r${i}`, prompt_id: 'fox', completion: completion(ic.svg) }));
    const first = await postJson(`${lb.url}/v1/rewards`, { items });
    expect(first.status, JSON.stringify(first.json).slice(0, 500)).toBe(200);
    const r1 = (first.json as Results).results;
    expect(r1.every((r) => r.status === 'ok')).toBe(true);
    expect(calls()).toBe(6);
    for (const url of [lb.url, a.url, b.url]) {
      const again = await postJson(`${url}/v1/rewards`, { items });
      const r2 = (again.json as Results).results;
      expect(r2.map((r) => r.reward)).toEqual(r1.map((r) => r.reward));
    }
    expect(calls()).toBe(6); // 0 judge calls for the three re-scores
  }, 60_000);

  it('a replica told to stop (SIGTERM) drains: not ready at once, its batch answered and cached, nothing judged twice, its leases given back', async () => {
    // A third replica C with nginx in front of C and B, so A and B stay for the next test.
    const c = await spawnServe(args);
    const lb2 = await startNginx([c.url, b.url].map((u) => new URL(u).host));
    try {
      const mk = (from: number, to: number, prefix: string) =>
        icons.slice(from, to).map((ic, i) => ({
          id: `${prefix}${i}`,
          prompt_id: 'fox',
          completion: completion(ic.svg),
        }));
      // C's batch: three fast pictures and one the judge takes 5 s over.
      const onC = [
        ...mk(12, 15, 'c'),
        { id: 'cslow', prompt_id: 'owl', completion: completion(icons[15]!.svg) },
      ];
      expect((await fetch(`${c.url}/readyz`)).status).toBe(200); // a keep-alive socket to C
      const before = calls();
      const inFlight = postJson(`${c.url}/v1/rewards`, { items: onC });
      const t0 = Date.now();
      while (calls() - before < 4 && Date.now() - t0 < 30_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(calls() - before).toBe(4); // all four are with the judge
      c.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      // Not ready at once (over the open socket; new connections are refused), while the
      // slow call is still out.
      const ready = await fetch(`${c.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { status: string }).status).toBe('draining');
      expect(c.child.exitCode).toBe(null);
      // New work through nginx goes to B meanwhile (nginx resends a 503 to the next
      // replica), and so does the Python client's, at once (no retry, no backoff).
      const viaNginx = await postJson(`${lb2.url}/v1/rewards`, { items: mk(16, 18, 'n') });
      expect(viaNginx.status).toBe(200);
      expect((viaNginx.json as Results).results.every((r) => r.status === 'ok')).toBe(true);
      const viaPython = await pythonPost(`${c.url},${b.url}`, mk(18, 20, 'p'));
      expect(viaPython.failovers).toBe(1);
      expect(viaPython.results.every((r) => r.status === 'ok')).toBe(true);
      // C's batch is answered whole by C, then C exits 0.
      const res = await inFlight;
      expect(res.status).toBe(200);
      const results = (res.json as Results).results;
      expect(results.map((r) => r.id)).toEqual(onC.map((i) => i.id));
      expect(results.every((r) => r.status === 'ok')).toBe(true);
      expect(await c.exited).toBe(0);
      // Each picture judged once, and C's answers are in the shared cache: a re-score of
      // C's batch on B asks the judge nothing.
      expect(calls() - before).toBe(8);
      const again = await postJson(`${b.url}/v1/rewards`, { items: onC });
      expect((again.json as Results).results.map((r) => r.reward)).toEqual(
        results.map((r) => r.reward),
      );
      expect(calls() - before).toBe(8);
      expect([...byImage.values()].filter((n) => n > 1)).toHaveLength(0);
      // C gave its leases back on the way out: none held, none left to expire.
      const r = new Redis(redis.url);
      const keys = await r.keys('rubrica:budget:*:leases');
      const held = await Promise.all(keys.map((k) => r.zcard(k)));
      r.disconnect();
      expect(held.reduce((x, y) => x + y, 0)).toBe(0);
    } finally {
      if (c.child.exitCode === null) c.child.kill('SIGKILL');
      await lb2.stop();
    }
  }, 90_000);

  it('a replica killed mid-batch: the Python client fails over, nothing is lost, nothing answered is judged again', async () => {
    const fast = icons.slice(6, 11).map((ic) => ic.svg);
    const slow = icons[11]!.svg;
    const items = [
      ...fast.map((svg, i) => ({ id: `f${i}`, prompt_id: 'fox', completion: completion(svg) })),
      { id: 'slow', prompt_id: 'owl', completion: completion(slow) },
    ];
    const before = calls();
    const script = [
      'import json, sys',
      'from rubrica.client import RubricaClient',
      'c = RubricaClient(retries=0)',
      'out = c.post("/v1/rewards", {"items": json.load(sys.stdin)})',
      'print(json.dumps({"results": out["results"], "failovers": c.connection.failovers}))',
    ].join('\n');
    const py = spawn('/usr/bin/python3', ['-c', script], {
      env: { ...process.env, PYTHONPATH: pythonDir, RUBRICA_URL: `${a.url},${b.url}` },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    py.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    py.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const done = new Promise<number | null>((r) => py.once('exit', r));
    py.stdin.end(JSON.stringify(items));
    // Replica A (the client's first) has sent all six to the judge; the five fast answers
    // are back (and in Redis) while the slow one is still out: kill A now, as a crash would.
    const t0 = Date.now();
    while (calls() - before < 6 && Date.now() - t0 < 30_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(calls() - before).toBe(6);
    await new Promise((r) => setTimeout(r, 600));
    a.child.kill('SIGKILL');
    expect(await done, err).toBe(0);
    const res = JSON.parse(out) as Results & { failovers: number };
    expect(res.failovers).toBe(1);
    expect(res.results.map((r) => r.id)).toEqual(items.map((i) => i.id)); // 0 lost
    expect(res.results.every((r) => r.status === 'ok')).toBe(true);
    // 6 calls on A, then on B only the slow one, whose answer the crash cut off: the five
    // fast pictures A had judged were answered from the shared cache, each judged once.
    expect(calls() - before).toBe(7);
    expect([...byImage.values()].filter((n) => n === 2)).toHaveLength(1);
    expect([...byImage.values()].filter((n) => n > 2)).toHaveLength(0);
  }, 90_000);
});
