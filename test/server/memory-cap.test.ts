// The memory drill: six concurrent 60 MB request bodies against a real `rubrica serve` under
// the documented heap cap (NODE_OPTIONS=--max-old-space-size=320). Before the shared body
// budget, all six were read and parsed at once and the process died of heap exhaustion
// (SIGABRT). Now the bodies over the budget are refused (503 body_budget) before a byte is
// read, and the server keeps answering.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { judgeByImage, spawnServe, tempDir, writeRubrics } from './support.ts';

const ITEMS = 4000;
const MB = 1024 * 1024;

/** One ~60 MB rewards request: 4,000 rollouts of ~15 KB of text each. */
function bigBody(): Buffer {
  const completion = 'words '.repeat(Math.floor((60 * MB) / ITEMS / 6));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `r${i}`,
    prompt_id: 'fox',
    completion,
  }));
  return Buffer.from(JSON.stringify({ items }));
}

function send(url: string, body: Buffer): Promise<{ status: number; code?: string }> {
  const u = new URL(`${url}/v1/rewards`);
  return new Promise((resolve) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () => {
          let code: string | undefined;
          try {
            code = JSON.parse(text)?.error?.code;
          } catch {
            // a body that is not JSON has no code
          }
          resolve({ status: res.statusCode ?? 0, ...(code ? { code } : {}) });
        });
      },
    );
    req.on('error', () => resolve({ status: 0 }));
    req.end(body);
  });
}

describe('bounded memory under concurrent big bodies', () => {
  it('six concurrent 60 MB bodies under a 320 MB heap: refused over budget, server alive', async () => {
    const dir = tempDir('serve-mem');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double: ModelDouble = await startModelDouble({ handler: judgeByImage() });
    const serve = await spawnServe(
      [
        '--rubrics',
        rubrics,
        '--judge',
        'openai-compatible:judge',
        '--judge-base-url',
        double.url,
        '--render-workers',
        '1',
        '--no-cache',
        '--max-in-flight',
        String(ITEMS), // one such request scored at a time; the rest would be parsed, then refused
      ],
      { NODE_OPTIONS: '--max-old-space-size=320', MALLOC_ARENA_MAX: '2' },
    );
    try {
      const body = bigBody();
      expect(body.length).toBeGreaterThan(59 * MB);
      const answers = await Promise.all(Array.from({ length: 6 }, () => send(serve.url, body)));
      // Bodies over the shared budget are refused before being read (503 body_budget); an
      // admitted one is scored (its completions hold no SVG: seconds), and once it is done the
      // budget it held lets a later one in. Which of the six gets in depends on timing.
      expect(answers.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
      expect(answers.filter((r) => r.code === 'body_budget').length).toBeGreaterThanOrEqual(3);
      const health = await fetch(`${serve.url}/healthz`);
      expect(health.status).toBe(200);
      expect(serve.child.exitCode).toBeNull();
      expect(serve.stderr()).not.toMatch(/heap out of memory/i);
    } finally {
      serve.child.kill('SIGKILL');
      await serve.exited;
      await double.close();
    }
  }, 240_000);
});
