// Every reward kind × every domain through `score`, `serve` and `eval` (issue 23 item 1), with
// the loopback judge double of reward-matrix.ts: a rollout that renders gets the reward
// computed by hand from the double's verdicts; one that fails gets its domain's failure code
// and 0 (the hybrid's render term measures rendering: 0, status ok). A reward that does not
// apply to a domain (the hybrid's SVG-only think term) is refused at start (exit 2) and per
// request (400 reward_not_applicable), never a 0 per rollout. One rollout of each kind per
// domain, one serve process for the matrix.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainId } from '../../src/core/domain-ids.ts';
import { postJson, spawnServe } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import {
  BAD,
  expectedReward,
  MATRIX_DOMAINS,
  matrixJudge,
  matrixRollouts,
  matrixRubrics,
  promptId,
  promptOf,
} from './reward-matrix.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

const KINDS = ['ruler', 'universal', 'rubric-s', 'prisma', 'direct', 'hybrid'] as const;
/** The hybrid as it applies to every domain: no think term, no image scorers (render only). */
const HYBRID_ANYWHERE = [
  '--lambda-think',
  '0',
  '--lambda-semantic',
  '0',
  '--lambda-aesthetic',
  '0',
];
const dir = mkdtempSync(join(tmpdir(), 'reward-matrix-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
let double: ModelDouble;
let rubrics: string;
let rollouts: string;

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  double.script(matrixJudge);
  rubrics = file('rubrics.jsonl', matrixRubrics(MATRIX_DOMAINS));
  rollouts = file(
    'rollouts.jsonl',
    matrixRollouts(MATRIX_DOMAINS)
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
});
afterAll(() => double.close());

// Two rollouts at a time: Chromium pages (html, mermaid) on a busy 2-core machine stay
// inside their render timeout.
const judgeFlags = () => [
  '--judge',
  'openai-compatible:m',
  '--judge-base-url',
  double.url,
  '--concurrency',
  '2',
];

/** Asserts one domain's two rollouts under every kind, given a reward result per (id, kind). */
function assertMatrix(verdict: (id: string, kind: string) => Json) {
  for (const d of MATRIX_DOMAINS) {
    for (const kind of KINDS) {
      const ok = verdict(`${d}-ok`, kind);
      expect(ok?.status, `${d} × ${kind}: ${JSON.stringify(ok)}`).toBe('ok');
      expect(ok.reward, `${d} × ${kind}`).toBeCloseTo(expectedReward(kind, d), 9);
      const bad = verdict(`${d}-bad`, kind);
      expect(bad.reward, `${d} × ${kind} (failing)`).toBe(0);
      if (kind === 'hybrid') {
        // Measured: the render term is 0, and says why.
        expect(bad.status).toBe('ok');
        const render = bad.criteria.find((c: Json) => c.key === 'render');
        expect(render.rationale).toContain(BAD[d].code);
      } else {
        expect(bad, `${d} × ${kind} (failing)`).toMatchObject({
          status: 'unscoreable',
          reason: BAD[d].code,
        });
      }
    }
  }
}

describe('every reward × every domain', () => {
  it('score', async () => {
    const out = join(dir, 'scores.jsonl');
    const r = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      rollouts,
      '--out',
      out,
      '--reward',
      KINDS.join(','),
      ...judgeFlags(),
      ...HYBRID_ANYWHERE,
      '--judge-retries',
      '0',
      '--no-cache',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const recs = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const by = new Map(recs.map((x: Json) => [x.id, x]));
    expect(by.size).toBe(MATRIX_DOMAINS.length * 2);
    assertMatrix((id, kind) => by.get(id).rewards[kind]);
    // Each failing rollout cost no judge call: 9 rendering rollouts × (ruler, universal,
    // rubric-s, prisma code + vision + direct's one). html's prisma holistic term (webui
    // family, λh > 0) is the direct judge's question about the same prompt, code and picture
    // (judgeDirect, one cache key), so it is asked once and shared, not a tenth call.
    const calls = MATRIX_DOMAINS.length * 6;
    expect(double.requests.length).toBe(calls);
  }, 600_000);

  it('score refuses the think-weighted hybrid outside svg at start (exit 2, no rollout scored)', async () => {
    const before = double.requests.length;
    const r = await runCliInProcess([
      'score',
      '--in',
      rollouts,
      '--out',
      join(dir, 'refused.jsonl'),
      '--reward',
      'hybrid',
      '--lambda-semantic',
      '0',
      '--lambda-aesthetic',
      '0',
      '--no-cache',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^rubrica: reward hybrid does not apply to domain python/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(double.requests.length).toBe(before);
  }, 60_000);

  it('serve: one process answers the matrix; refusals are 400 reward_not_applicable or exit 2', async () => {
    const serve = await spawnServe([
      '--rubrics',
      rubrics,
      '--reward',
      KINDS.join(','),
      ...judgeFlags(),
      ...HYBRID_ANYWHERE,
      '--no-cache',
    ]);
    try {
      const items = matrixRollouts(MATRIX_DOMAINS);
      const res = await postJson(`${serve.url}/v1/rewards`, { items });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      const by = new Map(((res.json as Json).results as Json[]).map((x) => [x.id, x]));
      assertMatrix((id, kind) => by.get(id).rewards[kind]);
      // An item's `domain` overrides detection: bare DOT (no fence) is no SVG unless told.
      const told = await postJson(`${serve.url}/v1/rewards`, {
        items: [
          { id: 't', prompt_id: promptId('dot'), domain: 'dot', completion: 'digraph { x -> y }' },
          { id: 'u', prompt_id: promptId('dot'), completion: 'digraph { x -> y }' },
        ],
        reward: 'ruler',
      });
      const [t, u] = (told.json as Json).results;
      expect(t.status).toBe('ok');
      expect(t.reward).toBeCloseTo(expectedReward('ruler', 'dot'), 9);
      expect(u).toMatchObject({ status: 'unscoreable', reason: 'no_svg', reward: 0 });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }

    // The think-weighted hybrid with rubrics written for other domains: refused at start.
    await expect(
      spawnServe([
        '--rubrics',
        rubrics,
        '--reward',
        'hybrid',
        '--lambda-semantic',
        '0',
        '--lambda-aesthetic',
        '0',
      ]),
    ).rejects.toThrow(/exited with 2[\s\S]*reward hybrid does not apply to domain/);

    // No rubrics: nothing known at start, so each request is checked.
    const plain = await spawnServe([
      '--reward',
      'hybrid',
      '--lambda-semantic',
      '0',
      '--lambda-aesthetic',
      '0',
    ]);
    try {
      const svg = await postJson(`${plain.url}/v1/rewards`, {
        items: [
          { id: 's', prompt: promptOf('svg'), completion: matrixRollouts(['svg'])[0]!.completion },
        ],
      });
      expect(svg.status).toBe(200);
      // λt 0.1 · think 0 + λr 0.1 · render 1, over 0.2.
      expect((svg.json as Json).results[0].reward).toBeCloseTo(0.5, 12);
      const py = await postJson(`${plain.url}/v1/rewards`, {
        items: [
          {
            id: 'p',
            prompt: promptOf('python'),
            completion: matrixRollouts(['python'])[0]!.completion,
          },
        ],
      });
      expect(py.status).toBe(400);
      expect((py.json as Json).error.code).toBe('reward_not_applicable');
      expect((py.json as Json).error.message).toMatch(/hybrid .*python/);
    } finally {
      plain.child.kill('SIGTERM');
      await plain.exited;
    }
  }, 600_000);

  it('eval', async () => {
    const prompts = file(
      'prompts.jsonl',
      MATRIX_DOMAINS.map((d: DomainId) =>
        JSON.stringify({ id: promptId(d), prompt: promptOf(d) }),
      ).join('\n'),
    );
    const out = join(dir, 'eval');
    const r = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--rubrics',
      rubrics,
      '--reward',
      'rubric-s,prisma,direct,hybrid',
      ...judgeFlags(),
      ...HYBRID_ANYWHERE,
      '--out',
      out,
      '--no-cache',
    ]);
    expect(r.stderr).not.toMatch(/rubrica: (?!.*unscoreable)/);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const by = new Map(results.map((x: Json) => [x.id, x]));
    assertMatrix((id, kind) => by.get(id).scores[kind]);

    const refused = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--reward',
      'hybrid',
      '--lambda-semantic',
      '0',
      '--lambda-aesthetic',
      '0',
      ...judgeFlags(),
      '--out',
      join(dir, 'eval-refused'),
      '--no-cache',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/reward hybrid does not apply to domain python/);
  }, 600_000);
});
