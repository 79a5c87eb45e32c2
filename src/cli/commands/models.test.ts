// `rubrica models check` as a user runs it: a real process against the loopback double.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../../../test/support/model-double.ts';

const run = promisify(execFile);
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble();
});
afterAll(() => double.close());

async function rubrica(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run('node', ['bin/rubrica.js', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('rubrica models check', () => {
  it('reports a working vision model (base URL from RUBRICA_JUDGE_BASE_URL)', async () => {
    double.script(() => jsonAnswer({ colour: 'red' }));
    const r = await rubrica(['models', 'check', 'vllm:Qwen/Qwen3-VL-8B-Instruct'], {
      RUBRICA_JUDGE_BASE_URL: double.url,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`base URL:  ${double.url}`);
    expect(r.stdout).toMatch(/image: {5}seen/);
    expect(double.requests.at(-1)!.model).toBe('Qwen/Qwen3-VL-8B-Instruct');
  });

  it('exits 1 with JSON output when the model fails', async () => {
    double.script(() => ({ status: 401, body: '{"error":{"message":"bad key"}}' }));
    const r = await rubrica([
      'models',
      'check',
      'ollama:qwen3-vl:8b',
      '--role',
      'author',
      '--base-url',
      double.url,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: { status: number } };
    expect(out).toMatchObject({ ok: false, error: { status: 401 } });
  });

  it('exits 2 on an unknown provider or a missing key', async () => {
    const bad = await rubrica(['models', 'check', 'hf:x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown model provider "hf"/);
    expect(
      (
        await rubrica(['models', 'check', 'openai:gpt-5'], {
          OPENAI_API_KEY: '',
          RUBRICA_JUDGE_API_KEY: '',
        })
      ).code,
    ).toBe(2);
  });
});
