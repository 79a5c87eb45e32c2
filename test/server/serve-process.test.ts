// `rubrica serve` as a real process: auth comes from RUBRICA_TOKEN, and SIGTERM during a
// batch lets that batch finish, refuses new work, closes the cache cleanly and exits 0.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { startModelDouble } from '../support/model-double.ts';
import { judgeByImage, postJson, spawnServe, tempDir, writeRubrics } from './support.ts';

const icons = fluentEmoji(12);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;

// The Python adapters' own suite (integrations/python/tests, run by .ci/run through
// scripts/python-adapters.sh) drives a real serve started by test/support/adapter-stack.ts; here
// only what that suite takes for granted about RUBRICA_TOKEN is checked.
describe('rubrica serve with RUBRICA_TOKEN in its environment', () => {
  it('guards every route but /healthz with the token', async () => {
    const dir = tempDir('serve-token');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    // serve probes its judge before it starts, so the judge must answer.
    const double = await startModelDouble({ handler: judgeByImage() });
    const serve = await spawnServe(
      [
        '--rubrics',
        rubrics,
        '--judge',
        'openai-compatible:judge',
        '--judge-base-url',
        double.url,
        '--cache',
        join(dir, 'cache.sqlite'),
        '--render-workers',
        '1',
      ],
      { RUBRICA_TOKEN: 'tok-123' },
    );
    try {
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${serve.url}/metrics`)).status).toBe(401);
      const authed = await fetch(`${serve.url}/metrics`, {
        headers: { authorization: 'Bearer tok-123' },
      });
      expect(authed.status).toBe(200);
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      await double.close();
    }
  });
});

describe('SIGTERM during a batch', () => {
  it('answers the in-flight batch, refuses new work, closes the store and exits 0', async () => {
    const dir = tempDir('serve-term');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double = await startModelDouble({ handler: judgeByImage('JUDGE_FAILS', 1500) });
    const cache = join(dir, 'cache.sqlite');
    const serve = await spawnServe([
      '--rubrics',
      rubrics,
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--cache',
      cache,
      '--render-workers',
      '1',
    ]);
    try {
      const items = icons
        .slice(2, 10)
        .map((ic, i) => ({ id: `t${i}`, prompt_id: 'fox', completion: completion(ic.svg) }));
      const inFlight = postJson(`${serve.url}/v1/rewards`, { items });
      // Wait until the judge is busy with this batch, then ask the server to stop.
      const t0 = Date.now();
      while (double.inFlight === 0 && Date.now() - t0 < 20_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(double.inFlight).toBeGreaterThan(0);
      serve.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      const late = await postJson(`${serve.url}/v1/rewards`, { items: items.slice(0, 1) }).catch(
        (e: Error) => ({ status: 0, error: e }),
      );
      // Either refused while draining, or the listener is already gone.
      expect([0, 503]).toContain(late.status);
      const res = await inFlight;
      expect(res.status).toBe(200);
      const results = (res.json as { results: Array<{ id: string; status: string }> }).results;
      expect(results.map((r) => r.id)).toEqual(items.map((i) => i.id));
      expect(results.every((r) => r.status === 'ok')).toBe(true);
      expect(await serve.exited).toBe(0);
      expect(serve.stderr()).toMatch(/"msg":"closed"/);
      // Closed cleanly: the WAL was checkpointed away and the answers are in the file.
      expect(existsSync(`${cache}-wal`)).toBe(false);
      const db = new Database(cache, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
      await double.close();
    }
  });
});
