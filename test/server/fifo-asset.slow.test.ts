// Issue 35: an asset `{ path }` naming a FIFO under --data-root used to freeze the whole
// process in a synchronous open (it waits for a writer that never comes): `/healthz` went
// silent and every other request waited. Real processes here, a real FIFO with no writer:
// `serve --data-root` keeps answering /healthz and gives the item `asset_invalid`, and
// `inspect --data-root` exits 2 with the code. On the old code both hang; every wait below
// has a deadline, so the test fails rather than hangs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMemoryCap } from '../../src/domains/doctor.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { judgeByImage, postJson, spawnServe, tempDir, writeRubrics } from './support.ts';

const dir = tempDir('fifo-asset');
const root = join(dir, 'root');
mkdirSync(root);
execFileSync('mkfifo', [join(root, 'pipe.csv')]);
writeFileSync(join(root, 'ok.csv'), 'x,y\n1,2\n');

const PY = '```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\n```';

let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: judgeByImage() });
});
afterAll(() => double.close());

interface Result {
  id: string;
  status: string;
  reason?: string;
}

describe('a FIFO asset under --data-root', () => {
  it('serve answers /healthz throughout and gives the item asset_invalid', async () => {
    const rubrics = writeRubrics(dir, [['p', 'a line']]);
    const serve = await spawnServe(
      [
        '--rubrics',
        rubrics,
        '--reward',
        'universal',
        '--judge',
        'openai-compatible:judge',
        '--judge-base-url',
        double.url,
        '--no-cache',
        '--render-workers',
        '1',
        '--data-root',
        root,
        // This machine has a memory cgroup (v1): the flag lets serve start, and the ready
        // line names the cap in force.
        '--require-cgroup',
      ],
      {},
      60_000,
    );
    expect(serve.stderr()).toContain(`"memory_cap":"${currentMemoryCap()}"`);
    try {
      const items = [
        { id: 'fifo', prompt: 'a line', completion: PY, assets: { 'd.csv': { path: 'pipe.csv' } } },
        { id: 'dir', prompt: 'a line', completion: PY, assets: { 'd.csv': { path: '.' } } },
      ];
      // Caught here so a frozen (killed) service fails the assertions below, not the run.
      const scored = postJson(`${serve.url}/v1/rewards`, { items }).catch((e: Error) => ({
        status: 0,
        headers: new Headers(),
        json: e.message as unknown,
      }));
      // The service must keep answering while that request is being handled.
      for (let i = 0; i < 3; i++) {
        const h = await fetch(`${serve.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        expect(h.status).toBe(200);
      }
      const r = await Promise.race([
        scored,
        new Promise<never>((_, rej) =>
          setTimeout(() => rej(new Error('no answer within 30 s')), 30_000),
        ),
      ]);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const results = (r.json as { results: Result[] }).results;
      expect(results.map((x) => x.id)).toEqual(['fifo', 'dir']);
      for (const x of results) {
        expect(x.status, JSON.stringify(x)).toBe('unscoreable');
        expect(JSON.stringify(x)).toContain('asset_invalid');
      }
    } finally {
      // SIGKILL: a process frozen in open() never runs a SIGTERM handler.
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
  }, 120_000);

  it('inspect exits 2 with asset_invalid instead of waiting for a writer', async () => {
    const completion = join(dir, 'c.txt');
    writeFileSync(completion, PY);
    const assets = join(dir, 'assets.json');
    writeFileSync(assets, JSON.stringify({ 'd.csv': { path: 'pipe.csv' } }));
    const child = spawn(
      'node',
      ['bin/rubrica.js', 'inspect', completion, '--assets', assets, '--data-root', root],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise<number | null | 'hung'>((res) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        res('hung');
      }, 45_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        res(c);
      });
    });
    expect(code, err).toBe(2);
    expect(err).toContain('asset_invalid');
    expect(err).toMatch(/FIFO/);
  }, 60_000);
});
