// End-to-end over real HTTP: the real scorer (render pool, inspection, SQLite cache) behind
// the server, the loopback judge double answering per picture. Every route, no_rubric,
// hostile SVGs next to good ones, judge faults at 20%, and the cache on a second pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupAdvantages } from '../../src/reward/grpo.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import {
  judgeByImage,
  postJson,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

const icons = fluentEmoji(40);
const completion = (svg: string) => `Here is my drawing.\n\n\`\`\`svg\n${svg}\n\`\`\`\n`;

const HOSTILE: Array<[string, string]> = [
  [
    'entity-bomb',
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&d;&d;&d;&d;</text></svg>',
  ],
  [
    'xxe',
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&x;</text></svg>',
  ],
  [
    'external-image',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><image href="file:///etc/passwd" width="10" height="10"/><image xlink:href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>',
  ],
  [
    'script',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>while(1){}</script><circle cx="5" cy="5" r="4" fill="red"/></svg>',
  ],
  [
    'huge-canvas',
    '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="100000" height="100000" fill="blue"/></svg>',
  ],
  [
    'many-segments',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0 0${' L1 1 L2 2'.repeat(300_000)}"/></svg>`,
  ],
  [
    'use-fanout',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><g id="a0"><rect width="1" height="1"/></g>${Array.from({ length: 20 }, (_, i) => `<g id="a${i + 1}"><use href="#a${i}"/><use href="#a${i}"/></g>`).join('')}</defs><use href="#a20"/></svg>`,
  ],
  ['not-xml', '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"'],
  ['blank', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'],
  ['no-svg', 'I cannot draw that, sorry.'],
];

describe('reward server end to end (real scorer, judge double)', () => {
  let double: ModelDouble;
  let server: RealServer;
  const dir = tempDir('serve-e2e');
  const rubrics = writeRubrics(dir, [
    ['fox', 'a red fox'],
    ['owl', 'an owl at night'],
    ['fail', 'JUDGE_FAILS on this prompt'],
  ]);

  beforeAll(async () => {
    double = await startModelDouble({ handler: judgeByImage() });
    server = await startRealServer({ judgeUrl: double.url, rubrics, dir, maxRetries: 1 });
  });
  afterAll(async () => {
    await server?.close();
    await double?.close();
  });

  it('POST /v1/rewards: rewards follow the judge, GRPO groups per prompt, no_rubric and judge_error as results', async () => {
    const items = [
      ...icons
        .slice(0, 4)
        .map((ic, i) => ({ id: `fox#${i}`, prompt_id: 'fox', completion: completion(ic.svg) })),
      ...icons.slice(4, 8).map((ic, i) => ({
        id: `owl#${i}`,
        prompt: '  an owl   at night ',
        completion: completion(ic.svg),
      })),
      { id: 'stray', prompt_id: 'nope', completion: completion(icons[8]!.svg) },
      { id: 'failing', prompt_id: 'fail', completion: completion(icons[9]!.svg) },
      { id: 'dropped', prompt_id: 'dropped', completion: completion(icons[10]!.svg) },
    ];
    const res = await postJson(`${server.url}/v1/rewards`, { items });
    expect(res.status).toBe(200);
    const results: Json[] = (res.json as Json).results;
    expect(results.map((r) => r.id)).toEqual(items.map((i) => i.id));
    // Each rendered picture went to the judge; its reward is the score the double chose for it.
    const judged = new Map(double.requests.map((r) => [r.images[0], r]));
    const okOnes = results.filter((r) => r.status === 'ok');
    expect(okOnes).toHaveLength(8);
    for (const r of okOnes) {
      expect(r.criteria).toHaveLength(6);
      const s = r.criteria[0].score;
      expect(r.criteria.every((c: Json) => c.score === s)).toBe(true);
      expect(r.reward).toBeCloseTo(s, 12);
      expect(r.checks.renders).toBe(true);
    }
    expect(judged.size).toBeGreaterThanOrEqual(9);
    expect(results[8]).toMatchObject({ status: 'unscoreable', reason: 'no_rubric', reward: 0 });
    expect(results[9]).toMatchObject({
      status: 'grader_error',
      reason: 'judge_error',
      reward: 0,
      advantage: 0,
    });
    expect(results[10]).toMatchObject({ reason: 'no_rubric' });
    // Group stats: the four fox rollouts form one group.
    const fox = results.slice(0, 4).map((r) => r.reward);
    const mean = fox.reduce((a, b) => a + b, 0) / 4;
    expect(results[0].group).toMatchObject({ key: 'fox', size: 4 });
    expect(results[0].group.mean).toBeCloseTo(mean, 12);
    expect(results[4].group).toMatchObject({ key: 'prompt:an owl at night', size: 4 });
    const advSum = results.slice(0, 4).reduce((a: number, r: Json) => a + r.advantage, 0);
    expect(advSum).toBeCloseTo(0, 6);
  });

  it('POST /v1/verl and /v1/openrlhf score real pictures the same way', async () => {
    const before = double.requests.length;
    const verl = await postJson(`${server.url}/v1/verl`, {
      data_sources: ['rubrica', 'rubrica', 'rubrica'],
      solution_strs: [completion(icons[11]!.svg), 'no drawing', completion(icons[12]!.svg)],
      ground_truths: ['fox', 'fox', 'unknown'],
      extra_infos: [{ index: 0 }, { index: 1 }, { index: 2, prompt: 'an owl at night' }],
    });
    expect(verl.status).toBe(200);
    const v = verl.json as Json[];
    expect(v[0]).toMatchObject({ status: 'ok', scored: 1, renders: 1, judge_calls: 1 });
    expect(v[0].score).toBeCloseTo(v[0].crit_concept_recognisability, 12);
    expect(v[1]).toMatchObject({ score: 0, reason: 'no_svg', crit_key_parts: null });
    // Unknown ground_truth, but extra_info.prompt finds the owl rubric by text.
    expect(v[2]).toMatchObject({ status: 'ok' });
    const prompt = '<|im_start|>user\nan owl at night<|im_end|>\n<|im_start|>assistant\n';
    const orl = await postJson(`${server.url}/v1/openrlhf`, {
      query: [`${prompt}${completion(icons[13]!.svg)}<|im_end|>`, `${prompt}nothing<|im_end|>`],
      prompts: [prompt, prompt],
      labels: ['owl', 'owl'],
    });
    expect(orl.status).toBe(200);
    const o = orl.json as Json;
    expect(o.rewards[0]).toBeGreaterThan(0);
    expect(o.rewards[1]).toBe(0);
    expect(o.extra_logs.scored).toEqual([1, 0]);
    expect(double.requests.length - before).toBe(3);
  });

  it('hostile SVGs in a batch do not stop the good ones from scoring', async () => {
    const good = icons
      .slice(14, 20)
      .map((ic, i) => ({ id: `good${i}`, prompt_id: 'fox', completion: completion(ic.svg) }));
    const bad = HOSTILE.map(([name, svg]) => ({
      id: name,
      prompt_id: 'fox',
      completion: completion(svg),
    }));
    // An 8 MB answer with no drawing in it: the policy's output, so a result of its own
    // (too_large, before any synchronous work on it), never a refusal of the batch.
    const huge = { id: 'huge-completion', prompt_id: 'fox', completion: 'draw '.repeat(1_600_000) };
    const items = good
      .flatMap((g, i) => [g, ...(bad[i] ? [bad[i]!] : [])])
      .concat(bad.slice(good.length), [huge]);
    const t0 = Date.now();
    const res = await postJson(`${server.url}/v1/rewards`, { items });
    expect(res.status).toBe(200);
    const results: Json[] = (res.json as Json).results;
    expect(results).toHaveLength(items.length);
    const byId = new Map(results.map((r) => [r.id, r]));
    for (const g of good) expect(byId.get(g.id)).toMatchObject({ status: 'ok' });
    for (const [name] of HOSTILE) expect(byId.has(name)).toBe(true);
    expect(byId.get('not-xml')).toMatchObject({ status: 'unscoreable' });
    expect(byId.get('blank')).toMatchObject({ status: 'unscoreable', reason: 'blank' });
    expect(byId.get('no-svg')).toMatchObject({ status: 'unscoreable', reason: 'no_svg' });
    expect(byId.get('huge-canvas')!.reason).not.toBe('judge_error');
    expect(byId.get('huge-completion')).toMatchObject({
      status: 'unscoreable',
      reason: 'too_large',
    });
    expect(byId.get('many-segments')).toMatchObject({ status: 'unscoreable', reason: 'too_large' });
    // No SVG fetched anything: the XXE text never reached the judge.
    for (const r of double.requests) expect(r.text).not.toContain('root:x:0:0');
    expect(Date.now() - t0).toBeLessThan(45_000);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('the same rollouts a second time are answered from the cache: zero judge calls', async () => {
    const items = icons
      .slice(20, 28)
      .map((ic, i) => ({ id: `c${i}`, prompt_id: 'owl', completion: completion(ic.svg) }));
    const first = await postJson(`${server.url}/v1/rewards`, { items });
    const calls = double.requests.length;
    const second = await postJson(`${server.url}/v1/rewards`, { items });
    expect(double.requests.length).toBe(calls);
    const a: Json[] = (first.json as Json).results;
    const b: Json[] = (second.json as Json).results;
    expect(b.every((r) => r.cached === true)).toBe(true);
    expect(b.map((r) => r.reward)).toEqual(a.map((r) => r.reward));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/rubrica_cache_hits_total (\d+)/);
    expect(Number(/rubrica_cache_hits_total (\d+)/.exec(metrics)![1])).toBeGreaterThanOrEqual(8);
    expect(metrics).toMatch(
      /rubrica_rollouts_total\{status="unscoreable",reason="no_rubric"\} [1-9]/,
    );
  });
});

describe('judge faults at 20% (429, 500, hang, garbage)', () => {
  it('every rollout gets a result; faulted ones are judge_error, the rest score', async () => {
    const dir = tempDir('serve-faults');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double = await startModelDouble({
      handler: judgeByImage(),
      faultRate: 0.2,
      seed: 7,
      faults: ['429', '500', 'hang', 'malformed'],
    });
    // No retries: each rollout makes exactly one judge call, so faults map to rollouts.
    const server = await startRealServer({
      judgeUrl: double.url,
      rubrics,
      dir,
      maxRetries: 0,
      timeoutMs: 1500,
    });
    try {
      const items = icons
        .slice(0, 40)
        .map((ic, i) => ({ id: `r${i}`, prompt_id: 'fox', completion: completion(ic.svg) }));
      const res = await postJson(`${server.url}/v1/rewards`, { items });
      expect(res.status).toBe(200);
      const results: Json[] = (res.json as Json).results;
      expect(results.map((r) => r.id)).toEqual(items.map((i) => i.id));
      const errors = results.filter((r) => r.reason === 'judge_error');
      const ok = results.filter((r) => r.status === 'ok');
      expect(double.injected.length).toBeGreaterThan(3);
      expect(new Set(double.injected.map((f) => f.fault)).size).toBeGreaterThan(1);
      expect(errors.length).toBe(double.injected.length);
      expect(ok.length + errors.length).toBe(40);
      for (const e of errors)
        expect(e).toMatchObject({ status: 'grader_error', reward: 0, advantage: 0 });
      // Faults are left out of the group: the others' advantages are those of the group
      // without them.
      const expected = groupAdvantages(ok.map((r) => r.reward));
      for (const [k, r] of ok.entries()) expect(r.advantage).toBeCloseTo(expected[k]!, 12);
      expect(ok[0]!.group).toMatchObject({ size: ok.length, excluded: errors.length });
    } finally {
      await server.close();
      await double.close();
    }
  });
});
