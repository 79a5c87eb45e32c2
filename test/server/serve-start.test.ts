// `rubrica serve` refusing to start, each time with one clear line and the right exit code
// (2 usage, 1 cannot run), never a stack trace: an exposed address without a token, empty
// or unusable tokens, a judge that does not answer (pre-flight), a damaged cache file, a
// port already in use (a real process). And --insecure really starts on 0.0.0.0.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillCache, truncateCache } from '../support/broken-cache.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { freePort, judgeByImage, spawnServe, tempDir, writeRubrics } from './support.ts';

const dir = tempDir('serve-start');
const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: judgeByImage() });
});
afterAll(() => double?.close());

const base = () => [
  'serve',
  '--rubrics',
  rubrics,
  '--judge',
  'openai-compatible:judge',
  '--judge-base-url',
  double.url,
  '--render-workers',
  '1',
  '--port',
  '0',
];

function oneLine(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(stderr.startsWith('rubrica: ')).toBe(true);
}

describe('serve refuses to start, clearly', () => {
  it('a non-loopback host without a token needs --insecure', async () => {
    const r = await runCliInProcess([...base(), '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/refusing to serve 0\.0\.0\.0 without a token/);
    expect(r.stderr).toContain('--insecure');
  });

  it('an empty --token or RUBRICA_TOKEN is a usage error, not "no auth"', async () => {
    const r = await runCliInProcess([...base(), '--token', '']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/token is empty/);
    process.env.RUBRICA_TOKEN = '';
    try {
      const e = await runCliInProcess(base());
      expect(e.code).toBe(2);
      expect(e.stderr).toMatch(/token is empty/);
    } finally {
      delete process.env.RUBRICA_TOKEN;
    }
  });

  it('a token that cannot travel in a bearer header is refused at start-up', async () => {
    const r = await runCliInProcess([...base(), '--token', 'pass word:é']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/cannot appear in an "Authorization: Bearer" header/);
  });

  it('a judge that does not answer is found by the pre-flight probe, in seconds', async () => {
    const port = await freePort();
    const args = base();
    args[args.indexOf('--judge-base-url') + 1] = `http://127.0.0.1:${port}/v1`;
    const t0 = Date.now();
    const r = await runCliInProcess(args);
    expect(r.code).toBe(1);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.stderr).toContain(
      `the judge model did not answer: openai-compatible:judge at http://127.0.0.1:${port}/v1/models`,
    );
    expect(r.stderr).toMatch(/--judge-base-url/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a truncated cache file names the file and --no-cache (exit 1)', async () => {
    const cache = join(tempDir('serve-badcache'), 'cache.sqlite');
    fillCache(cache);
    truncateCache(cache);
    const r = await runCliInProcess([...base(), '--cache', cache]);
    expect(r.code).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toContain(cache);
    expect(r.stderr).toMatch(/truncated/);
    expect(r.stderr).toContain('--no-cache');
  });

  it('a port already in use is one line and exit 1 (real process)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const args = base().slice(1);
      args[args.indexOf('--port') + 1] = String(port);
      const r = await spawnServe(args).then(
        (s) => {
          s.child.kill('SIGKILL');
          throw new Error('serve started on a port in use');
        },
        (err: Error) => err.message,
      );
      expect(r).toMatch(/serve exited with 1/);
      expect(r).toContain(`rubrica: port ${port} is already in use on 127.0.0.1`);
      expect(r).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  it('--insecure serves 0.0.0.0 without a token on purpose', async () => {
    const s = await spawnServe([...base().slice(1), '--host', '0.0.0.0', '--insecure']);
    try {
      const port = new URL(s.url).port;
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });
});
