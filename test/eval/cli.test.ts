// The `generate` and `eval` commands as a user runs them, against the loopback model
// double as policy and judge, and against a judge that is not there. The README command
// runs as a child process; the others call the CLI's main() in this process (same code
// path after argv, without paying the interpreter start-up each time).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);

let dir: string;
let double: ModelDouble;

/** Runs the CLI; never throws, returns exit code and output. */
async function rubrica(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('RUBRICA_')) delete env[k];
  const t0 = performance.now();
  try {
    const r = await run(process.execPath, [join(ROOT, 'bin/rubrica.js'), ...args], {
      cwd: dir,
      env,
      timeout: 120_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: e.code ?? -1,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
      ms: performance.now() - t0,
    };
  }
}

const svg = (text: string) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="${8 + (text.length % 6)}" fill="#f8312f"/></svg>\n\`\`\``;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-eval-cli-'));
  // Policy requests carry no schema (free text); judge requests do.
  double = await startModelDouble({
    handler: (req) =>
      req.schema
        ? jsonAnswer(fillSchema(req.schema))
        : { content: svg(req.messages.at(-1)?.text ?? '') },
  });
});

afterAll(async () => {
  await double.close();
  await rm(dir, { recursive: true, force: true });
});

const examples = (f: string) => join(ROOT, 'examples', f);

describe('rubrica eval / generate', () => {
  it('runs the README command with no judge reachable, and says how to start one', async () => {
    const out = join(dir, 'example');
    const r = await rubrica([
      'eval',
      '--prompts',
      examples('prompts.jsonl'),
      '--rollouts',
      examples('rollouts.jsonl'),
      '--judge',
      'ollama:qwen3-vl:8b',
      '--judge-base-url',
      'http://127.0.0.1:9/v1',
      '--out',
      out,
      '--no-cache',
    ]);
    // Everything is rendered, checked and reported, but nothing was judged: exit 1, saying why.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /rubrica: exit 1: 2\d of 23 rollouts ended in a grader fault \(judge_error 2\d\); run the same command again to retry them/,
    );
    expect(r.stdout).toContain(
      'The judge was not reachable: ollama:qwen3-vl:8b at http://127.0.0.1:9/v1/models',
    );
    expect(r.stdout).toContain('ollama pull qwen3-vl:8b && ollama serve');
    expect(r.stdout).toContain('vllm serve Qwen/Qwen3-VL-8B-Instruct');
    expect(r.stdout).toMatch(/render success\s+91\.3% \(21 of 23\)/);
    for (const f of ['results.jsonl', 'summary.json', 'report.html'])
      expect(existsSync(join(out, f)), f).toBe(true);
    process.stdout.write(
      `eval on the examples, judge unreachable: ${(r.ms / 1000).toFixed(1)} s\n`,
    );
  });

  it('samples with --policy, then judges, in one command', async () => {
    const out = join(dir, 'policy');
    const r = await runCliInProcess([
      'eval',
      '--prompts',
      examples('prompts.jsonl'),
      '--policy',
      'openai-compatible:tiny-policy',
      '--policy-base-url',
      double.url,
      '--judge',
      'vllm:judge',
      '--judge-base-url',
      double.url,
      '--n',
      '2',
      '--out',
      out,
      '--cache',
      join(dir, 'cache.sqlite'),
      '--run',
      'tiny',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('generate: 20 samples planned, 0 already in');
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ run: 'tiny', records: 20, prompts: 10 });
    expect(summary.usage.policy).toMatchObject({ model: 'openai-compatible:tiny-policy' });
    expect(summary.usage.policy.usage.calls).toBe(20);
    expect(summary.rewards.universal.render_success_rate).toBe(1);
    expect(summary.rewards.universal.score_rendered.estimate).toBeCloseTo(0.75, 12);
    expect(summary.settings).toMatchObject({ policy: 'openai-compatible:tiny-policy', n: 2 });
  });

  it('generate writes rollouts and its usage ledger', async () => {
    const out = join(dir, 'rollouts.jsonl');
    const r = await runCliInProcess([
      'generate',
      '--prompts',
      examples('prompts.jsonl'),
      '--policy',
      'vllm:tiny-policy',
      '--policy-base-url',
      double.url,
      '--n',
      '3',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('generate: 30 samples planned, 0 already in');
    expect(r.stdout).toMatch(/policy usage: 30 calls, \d+ input \+ \d+ output tokens/);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(30);
  });

  it('refuses bad flag combinations with exit code 2', async () => {
    const both = await runCliInProcess([
      'eval',
      '--prompts',
      examples('prompts.jsonl'),
      '--rollouts',
      examples('rollouts.jsonl'),
      '--policy',
      'vllm:x',
      '--judge',
      'vllm:j',
      '--out',
      join(dir, 'bad'),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exactly one of --policy');
  });
});
