// Issue 22 item 3, from outside: a vega spec that exhausts the runtime's heap is a scored
// failure of that rollout, never the end of the process. `rubrica serve` answers a batch
// holding such specs next to honest rollouts and stays healthy; `rubrica inspect` prints
// its JSON and exits 0 (bad input is a result). Both used to die with V8's fatal OOM (134).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeByImage, postJson, spawnServe, tempDir, writeRubrics } from '../server/support.ts';
import { startModelDouble } from '../support/model-double.ts';
import { EXPRESSION_ARRAYS, SIGNAL_SEQUENCE } from '../support/vega-heap-bombs.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

const BAR = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: {
    values: [
      { a: 'A', b: 28 },
      { a: 'B', b: 55 },
      { a: 'C', b: 43 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
});
const fence = (spec: string) => `\`\`\`vega-lite\n${spec}\n\`\`\``;
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="red"/></svg>';

/** `node bin/rubrica.js …` as its own process: exit code, stdout, stderr. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['bin/rubrica.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a vega heap bomb against a long-lived service', () => {
  it('serve answers every rollout of the batch, the bombs as too_large, and stays healthy', async () => {
    const dir = tempDir('serve-vega-heap');
    const rubrics = writeRubrics(dir, [['c', 'a bar chart']]);
    const double = await startModelDouble({ handler: judgeByImage() });
    const serve = await spawnServe([
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
    ]);
    try {
      const items = [
        { id: 'honest-vl', prompt_id: 'c', completion: fence(BAR) },
        { id: 'signal', prompt_id: 'c', completion: fence(SIGNAL_SEQUENCE) },
        { id: 'arrays', prompt_id: 'c', completion: fence(EXPRESSION_ARRAYS) },
        { id: 'honest-svg', prompt_id: 'c', completion: `\`\`\`svg\n${SVG}\n\`\`\`` },
      ];
      const res = await postJson(`${serve.url}/v1/rewards`, { items });
      expect(res.status).toBe(200);
      const results: Json[] = (res.json as Json).results;
      expect(results.map((r) => [r.id, r.status, r.reason ?? null])).toEqual([
        ['honest-vl', 'ok', null],
        ['signal', 'unscoreable', 'too_large'],
        ['arrays', 'unscoreable', 'too_large'],
        ['honest-svg', 'ok', null],
      ]);
      expect(results[1].reward).toBe(0);
      expect(results[2].reward).toBe(0);
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      // The next rollout after the bombs renders normally on a fresh runtime.
      const again = await postJson(`${serve.url}/v1/rewards`, {
        items: [{ id: 'after', prompt_id: 'c', completion: fence(BAR.replace('28', '29')) }],
      });
      expect((again.json as Json).results[0].status).toBe('ok');
      expect(serve.child.exitCode).toBeNull();
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      await double.close();
    }
  }, 180_000);

  it('inspect prints its JSON and exits 0 on each bomb', async () => {
    const dir = tempDir('inspect-vega-heap');
    for (const [name, spec] of [
      ['signal', SIGNAL_SEQUENCE],
      ['arrays', EXPRESSION_ARRAYS],
    ] as const) {
      const file = join(dir, `${name}.txt`);
      writeFileSync(file, fence(spec));
      const r = await runCli(['inspect', file, '--json']);
      expect(r.code, r.stderr.slice(-500)).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.artifact).toMatchObject({ found: true, domain: 'vega-lite' });
      expect(j.render.ok).toBe(false);
      expect(j.render.error.code).toBe('too_large');
    }
  }, 120_000);
});
