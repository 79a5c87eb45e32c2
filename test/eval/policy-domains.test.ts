// `eval --policy` with a reward that does not apply to a domain (hybrid's think term outside
// svg): refused before any policy call when the domain is declared (the prompts file's
// `domain`, or --domain), and at the first sample when only detection can tell — counted on
// the loopback policy double, a separate double from the judge.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

let dir: string;
let policy: ModelDouble;
let judge: ModelDouble;
let answer: string;

const PY = '```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n```';
const SVG =
  '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="9" fill="#f8312f"/></svg>\n```';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-policy-domains-'));
  policy = await startModelDouble({ handler: () => ({ content: answer }) });
  judge = await startModelDouble({ handler: (req) => jsonAnswer(fillSchema(req.schema!)) });
});
afterAll(async () => {
  await Promise.all([policy.close(), judge.close()]);
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  policy.reset();
  judge.reset();
});

async function prompts(name: string, rows: object[]) {
  const p = join(dir, name);
  await writeFile(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return p;
}
const six = (extra: object = {}) =>
  Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, prompt: `a plot number ${i}`, ...extra }));

/** eval --policy with the hybrid reward at Reason-SVG's default λt (0.1); no CLIP terms. */
const evalHybrid = (promptsFile: string, out: string, ...more: string[]) =>
  runCliInProcess([
    'eval',
    '--prompts',
    promptsFile,
    '--policy',
    'openai-compatible:pol',
    '--policy-base-url',
    policy.url,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    judge.url,
    '--reward',
    'hybrid',
    '--lambda-semantic',
    '0',
    '--lambda-aesthetic',
    '0',
    '--n',
    '2',
    '--out',
    join(dir, out),
    '--no-cache',
    ...more,
  ]);

describe('eval --policy refuses a reward that does not apply to the domain', () => {
  it('before any policy call when the prompts file declares the domain', async () => {
    answer = PY;
    const rows = six();
    rows[3] = { ...rows[3]!, domain: 'python' } as (typeof rows)[number];
    const r = await evalHybrid(await prompts('declared.jsonl', rows), 'declared');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^rubrica: reward hybrid does not apply to domain python: .*\(prompt "p3" of .*declared\.jsonl is python; refused before any policy call\)\n$/,
    );
    expect(policy.requests).toHaveLength(0);
    expect(judge.requests).toHaveLength(0);
  });

  it('before any policy call with --domain', async () => {
    answer = PY;
    const r = await evalHybrid(await prompts('plain.jsonl', six()), 'flag', '--domain', 'python');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reward hybrid does not apply to domain python: .*\(--domain python;/);
    expect(policy.requests).toHaveLength(0);
  });

  it('at the first sample when only detection can tell, not once per rollout', async () => {
    answer = PY;
    const r = await evalHybrid(
      await prompts('detect.jsonl', six()),
      'detect',
      '--concurrency',
      '1',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /reward hybrid does not apply to domain python: .*\(sample p0#0 was detected as python; sampling stopped there/,
    );
    // 12 samples planned; one was asked for, and nothing was judged.
    expect(policy.requests).toHaveLength(1);
    expect(judge.requests).toHaveLength(0);
    const lines = (await readFile(join(dir, 'detect', 'rollouts.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    expect(lines).toHaveLength(1);
  });

  it('samples and scores every prompt when the declared domain is one the reward applies to', async () => {
    answer = SVG;
    const rows = six({ domain: 'svg' }).slice(0, 2);
    const r = await evalHybrid(await prompts('svg.jsonl', rows), 'svg');
    expect(r.code, r.stderr).toBe(0);
    expect(policy.requests).toHaveLength(4);
    const sampled = (await readFile(join(dir, 'svg', 'rollouts.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(sampled.map((s) => s.domain)).toEqual(['svg', 'svg', 'svg', 'svg']);
    const results = (await readFile(join(dir, 'svg', 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(4);
    for (const x of results) expect(x.scores.hybrid.status).toBe('ok');
  });
});
