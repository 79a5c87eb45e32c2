// Two real `rubrica serve` replicas sharing a real Redis (answer cache and judge budget),
// behind a real nginx running examples/scale/nginx.conf, with the model double as the judge
// counting its calls per picture: a batch through nginx is judged once, a re-score through
// any replica or nginx asks the judge nothing, and a replica SIGKILLed mid-batch loses no
// rollout when the Python client fails over (RUBRICA_URL="A,B"): what it had judged is
// answered from the shared cache; only the call the crash cut off is asked again.
import { spawn } from 'node:child_process';
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

const icons = fluentEmoji(16);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
const pythonDir = new URL('../../integrations/python', import.meta.url).pathname;

let redis: RedisProcess;
let double: Awaited<ReturnType<typeof startModelDouble>>;
let a: ServeProcess;
let b: ServeProcess;
let lb: NginxProcess;
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
  const args = [
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
