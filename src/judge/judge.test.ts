// The judge against the loopback double over real HTTP: what the request carries (the
// image, the schema, the calibration rule), tolerant parsing, faults and retries,
// invalid answers becoming judge errors (never clamped), per-item mode, cache and
// in-flight dedupe.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  jointAnswer,
  judgeClient,
  RULER_KEYS,
  rulerItems,
  schemaKeys,
  solidPng,
} from '../../test/score/support/fixtures.ts';
import { corruptDataPages, fillCache } from '../../test/support/broken-cache.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { openCache } from '../store/cache.ts';
import { createJudge as createAnyJudge, type JudgeOptions } from './judge.ts';

// This file is about the grid-scale judge (greedy scoring: the number written on the 0.01
// grid); the default (auto: one digit with logprobs) is checked at the end and in
// expected-scoring.test.ts.
const createJudge = (o: JudgeOptions) => createAnyJudge({ scoring: 'greedy', ...o });

let double: ModelDouble;
let png: Buffer;
const PROMPT = 'a red fox sitting in snow';
const items = rulerItems(PROMPT);
const SCORES = [0.9, 0.8, 0.7, 0.5, 0.6, 0.4];

beforeAll(async () => {
  double = await startModelDouble();
  png = await solidPng(200, 40, 30);
});
afterAll(() => double.close());
beforeEach(() => double.reset());

describe('joint mode', () => {
  it('sends prompt, rubric, calibration rule, the PNG as a data URI and the item schema', async () => {
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES)));
    const judge = createJudge({ client: judgeClient(double.url) });
    const v = await judge.judge({ prompt: PROMPT, items, png });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.criteria.map((c) => [c.key, c.axis, c.weight, c.score])).toEqual(
      items.map((it, i) => [it.key, it.axis, it.weight, SCORES[i]]),
    );
    expect(v.criteria[0]!.rationale).toBe('looked at concept_recognisability');
    expect(v.usage.calls).toBe(1);
    expect(double.requests).toHaveLength(1);
    const req = double.requests[0]!;
    expect(req.images).toEqual([`data:image/png;base64,${png.toString('base64')}`]);
    expect(req.text).toContain(PROMPT);
    expect(req.text).toContain(items[3]!.description);
    expect(req.text).toContain('0.4-0.6: partial composition');
    expect(req.text).toMatch(/not blank.*roughly recognisable.*NOT deserve more than 0\.6/s);
    const rf = req.responseFormat as {
      type: string;
      json_schema: { name: string; schema: object };
    };
    expect(rf.type).toBe('json_schema');
    expect(rf.json_schema.name).toBe('rubric_scores');
    expect(schemaKeys(req)).toEqual(RULER_KEYS);
    const item = (
      req.schema!.properties as Record<string, { properties: object; required: string[] }>
    ).composition!;
    expect(Object.keys(item.properties)).toEqual(['reasoning', 'score']);
    expect(item.properties).toMatchObject({ score: { type: 'number', minimum: 0, maximum: 1 } });
    expect(req.schema!.required).toEqual(RULER_KEYS);
  });

  it('reads answers wrapped in <think> and ```json fences with prose around', async () => {
    const body = JSON.stringify(jointAnswer(RULER_KEYS, SCORES), null, 2);
    double.enqueue({
      content: `<think>The fox is clear, composition a bit tight.</think>\nHere you go:\n\`\`\`json\n${body}\n\`\`\`\nHope this helps.`,
    });
    const v = await createJudge({ client: judgeClient(double.url) }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok && v.criteria.map((c) => c.score)).toEqual(SCORES);
  });

  it('retries 429 (retry-after) and 500, then succeeds', async () => {
    double.enqueue(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500 },
      jsonAnswer(jointAnswer(RULER_KEYS, SCORES)),
    );
    const v = await createJudge({ client: judgeClient(double.url) }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok).toBe(true);
    expect(double.requests).toHaveLength(3);
  });

  it('turns a timeout into a judge error after retries', async () => {
    double.script(() => ({ hang: true }));
    const client = judgeClient(double.url, { timeoutMs: 150, maxRetries: 1 });
    const v = await createJudge({ client }).judge({ prompt: PROMPT, items, png });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toMatch(/^timeout/);
    expect(double.requests).toHaveLength(2);
  });

  const invalid: [string, Record<string, unknown>][] = [
    [
      'a missing item',
      (() => {
        const a = jointAnswer(RULER_KEYS, SCORES) as Record<string, unknown>;
        delete a.composition;
        return a;
      })(),
    ],
    ['a score of 1.7', jointAnswer(RULER_KEYS, [0.9, 1.7, 0.7, 0.5, 0.6, 0.4])],
    ['a negative score', jointAnswer(RULER_KEYS, [0.9, 0.8, -0.1, 0.5, 0.6, 0.4])],
    ['a score that is not a number', jointAnswer(RULER_KEYS, [0.9, 0.8, 'high', 0.5, 0.6, 0.4])],
  ];
  for (const [name, answer] of invalid) {
    it(`retries ${name}, then reports a judge error (never clamps)`, async () => {
      double.script(() => jsonAnswer(answer));
      const v = await createJudge({ client: judgeClient(double.url) }).judge({
        prompt: PROMPT,
        items,
        png,
      });
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.message).toMatch(/^invalid_answer/);
      expect(double.requests).toHaveLength(3); // first attempt + 2 retries
    });
  }

  it('recovers when a retry after an invalid answer is valid', async () => {
    double.enqueue(
      jsonAnswer(jointAnswer(RULER_KEYS, [0.9, 1.7, 0.7, 0.5, 0.6, 0.4])),
      { raw: '{"choices": [ {"message": oops' },
      jsonAnswer(jointAnswer(RULER_KEYS, SCORES)),
    );
    const v = await createJudge({ client: judgeClient(double.url) }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok && v.criteria.map((c) => c.score)).toEqual(SCORES);
    expect(v.usage.calls).toBe(3);
  });
});

describe('per-item mode', () => {
  it('makes one call per item, each with the one-item schema', async () => {
    double.script((req) => {
      const i = items.findIndex((it) => req.text.includes(`### ${it.key} —`));
      return jsonAnswer({ reasoning: `item ${i}`, score: SCORES[i] });
    });
    const v = await createJudge({ client: judgeClient(double.url), mode: 'per-item' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok && v.criteria.map((c) => c.score)).toEqual(SCORES);
    expect(double.requests).toHaveLength(6);
    for (const req of double.requests) {
      expect(Object.keys(req.schema!.properties as object)).toEqual(['reasoning', 'score']);
      expect(req.images).toHaveLength(1);
      // Each call shows exactly one item.
      expect(items.filter((it) => req.text.includes(`### ${it.key} —`))).toHaveLength(1);
    }
  });

  it('fails the whole verdict when one item keeps failing', async () => {
    double.script((req) =>
      req.text.includes('### composition —')
        ? jsonAnswer({ reasoning: 'x', score: 1.7 })
        : jsonAnswer({ reasoning: 'x', score: 0.5 }),
    );
    const v = await createJudge({ client: judgeClient(double.url), mode: 'per-item' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toMatch(/^item composition: invalid_answer/);
  });
});

describe('cache and dedupe', () => {
  it('judges identical pictures once, then serves repeats from the cache with zero calls', async () => {
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES), { delayMs: 50 }));
    const cache = openCache(join(mkdtempSync(join(tmpdir(), 'rubrica-judge-')), 'c.sqlite'));
    const judge = createJudge({ client: judgeClient(double.url), cache });
    const same = await Promise.all(
      [1, 2, 3].map(() => judge.judge({ prompt: PROMPT, items, png })),
    );
    expect(double.requests).toHaveLength(1);
    expect(same.map((v) => v.ok && v.cached)).toEqual([false, true, true]);
    expect(same.map((v) => v.usage.calls)).toEqual([1, 0, 0]);

    // A fresh judge on the same cache file: zero calls.
    const again = createJudge({ client: judgeClient(double.url), cache });
    const hit = await again.judge({ prompt: PROMPT, items, png });
    expect(hit.ok && hit.cached && hit.criteria.map((c) => c.score)).toEqual(SCORES);
    expect(double.requests).toHaveLength(1);

    // Another picture, another rubric text or another mode: new keys, new calls.
    await judge.judge({ prompt: PROMPT, items, png: await solidPng(0, 0, 255) });
    const other = rulerItems(PROMPT).map((it, i) =>
      i === 0 ? { ...it, title: 'Changed title' } : it,
    );
    await judge.judge({ prompt: PROMPT, items: other, png });
    expect(double.requests).toHaveLength(3);
    cache.close();
  });

  it('does not cache failures', async () => {
    double.enqueue(jsonAnswer({}), jsonAnswer({}), jsonAnswer({}));
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES)));
    const cache = openCache(':memory:');
    const judge = createJudge({ client: judgeClient(double.url), cache });
    expect((await judge.judge({ prompt: PROMPT, items, png })).ok).toBe(false);
    expect((await judge.judge({ prompt: PROMPT, items, png })).ok).toBe(true);
    expect(double.requests).toHaveLength(4);
    cache.close();
  });
});

describe('the judge asked, callers that leave, a failing cache', () => {
  it('keys answers by the server asked: another --judge-base-url is asked again', async () => {
    const other = await startModelDouble();
    try {
      double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES)));
      other.script((req) =>
        jsonAnswer(jointAnswer(schemaKeys(req), [0.1, 0.1, 0.1, 0.1, 0.1, 0.1])),
      );
      const cache = openCache(':memory:');
      // Same provider and model name, two servers.
      const a = createJudge({ client: judgeClient(double.url), cache });
      const b = createJudge({ client: judgeClient(other.url), cache });
      const va = await a.judge({ prompt: PROMPT, items, png });
      const vb = await b.judge({ prompt: PROMPT, items, png });
      expect(va.ok && va.criteria.map((c) => c.score)).toEqual(SCORES);
      expect(vb.ok && vb.cached).toBe(false);
      expect(vb.ok && vb.criteria[0]!.score).toBe(0.1);
      expect(other.requests).toHaveLength(1);
      // Each server's answer is then a hit for that server only.
      const again = await a.judge({ prompt: PROMPT, items, png });
      expect(again.ok && again.cached && again.criteria[0]!.score).toBe(0.9);
      cache.close();
    } finally {
      await other.close();
    }
  });

  it('a caller that leaves does not fail another caller waiting on the same picture', async () => {
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES), { delayMs: 300 }));
    const judge = createJudge({ client: judgeClient(double.url) });
    const a = new AbortController();
    const pa = judge.judge({ prompt: PROMPT, items, png, signal: a.signal });
    const pb = judge.judge({ prompt: PROMPT, items, png, signal: new AbortController().signal });
    while (double.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    a.abort();
    const va = await pa;
    expect(va).toMatchObject({ ok: false, fault: 'judge_error' });
    const vb = await pb;
    expect(vb.ok && vb.criteria.map((c) => c.score)).toEqual(SCORES);
    // B owns the one call now that A left, so the tokens are still accounted for.
    expect(vb.usage.calls).toBe(1);
    expect(double.requests).toHaveLength(1);
  });

  it('aborts the model call when every caller has left', async () => {
    double.script(() => ({ hang: true }));
    const judge = createJudge({ client: judgeClient(double.url) });
    const a = new AbortController();
    const b = new AbortController();
    const both = [a, b].map((c) => judge.judge({ prompt: PROMPT, items, png, signal: c.signal }));
    while (double.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    a.abort();
    b.abort();
    expect((await Promise.all(both)).map((v) => v.ok)).toEqual([false, false]);
    const t0 = Date.now();
    while (double.inFlight > 0 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 5));
    expect(double.inFlight).toBe(0);
  });

  it('a corrupted cache is a cache_error fault naming the file, not a throw', async () => {
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES)));
    const path = join(mkdtempSync(join(tmpdir(), 'rubrica-judge-')), 'c.sqlite');
    fillCache(path);
    corruptDataPages(path);
    const cache = openCache(path);
    const v = await createJudge({ client: judgeClient(double.url), cache }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v).toMatchObject({ ok: false, fault: 'cache_error' });
    if (!v.ok) {
      expect(v.message).toContain(path);
      expect(v.message).toContain('--no-cache');
    }
    cache.close();
  });
});

describe('the default scoring (auto)', () => {
  it('asks one digit 0–9 with top_logprobs and reads Σ p·v; the record says expected', async () => {
    // The double answers the grid scores as a judge meaning them would on the digit scale
    // (test/support/model-double-grid.ts): two digits around 9·s, expectation s.
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), SCORES)));
    const v = await createAnyJudge({ client: judgeClient(double.url) }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.scoring).toBe('expected');
    for (const [i, c] of v.criteria.entries()) {
      expect(Math.abs(c.score! - SCORES[i]!)).toBeLessThan(1e-12);
      expect(c.distribution?.length).toBeGreaterThan(0);
    }
    const req = double.requests[0]!;
    expect(req.body.logprobs).toBe(true);
    expect(req.body.top_logprobs).toBe(20);
    const item = (req.schema!.properties as Record<string, { properties: object }>).composition!;
    expect(item.properties).toMatchObject({ score: { enum: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] } });
  });

  it('falls back to the written digit ÷ 9 when the server returns no logprobs', async () => {
    const DIGITS = [8, 7, 6, 4, 5, 3];
    double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), DIGITS), { logprobs: null }));
    const v = await createAnyJudge({ client: judgeClient(double.url) }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.scoring).toBe('greedy');
    expect(v.criteria.map((c) => c.score)).toEqual(DIGITS.map((d) => d / 9));
    expect(v.criteria.every((c) => c.distribution === undefined)).toBe(true);
  });
});
