// `runEval` end to end on the bundled examples: real renders (the render pool), the real
// scorer and judge code, the loopback model double as the judge. Checks the files a run
// writes, the reward arithmetic, resume, and a judge that cannot be reached.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run.ts';
import {
  type PromptLine,
  type RolloutLine,
  readPromptsFile,
  readRolloutsFile,
} from '../../src/eval/run-inputs.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createModelClient } from '../../src/models/client.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { BAND_RANGES, getPreset } from '../../src/rubric/presets.ts';
import type { RubricRecord } from '../../src/rubric/schema.ts';
import { universalItems } from '../../src/rubric/universal.ts';
import { launchChromium } from '../report/browser.ts';
import { type ModelDouble, schemaAnswer, startModelDouble } from '../support/model-double.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples');
/** Rollouts of the examples with no picture to judge, and why. */
const FAILURES: Record<string, string> = { 'p01#2': 'truncated', 'p04#1': 'no_svg' };

let dir: string;
let double: ModelDouble;
let renderer: RenderPool;
let prompts: PromptLine[];
let rollouts: RolloutLine[];

const judgeAt = (baseUrl: string) =>
  createModelClient('vllm:Qwen/Qwen3-VL-8B-Instruct', {
    role: 'judge',
    baseUrl,
    maxRetries: 0,
    env: {},
  });

const readLines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EvalRecord);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-eval-'));
  double = await startModelDouble({ handler: schemaAnswer() });
  renderer = createRenderPool({ workers: 2 });
  const p = await readPromptsFile(join(EXAMPLES, 'prompts.jsonl'));
  const r = await readRolloutsFile(join(EXAMPLES, 'rollouts.jsonl'));
  if (!p.ok || !r.ok) throw new Error('examples unreadable');
  expect(p.issues).toEqual([]);
  expect(r.issues).toEqual([]);
  prompts = p.value;
  rollouts = r.value.rollouts;
});

afterAll(async () => {
  await renderer.close();
  await double.close();
  await rm(dir, { recursive: true, force: true });
});

describe('runEval on the bundled examples', () => {
  it('judges every rendered rollout and writes results, images, summary and report', async () => {
    const outDir = join(dir, 'judged');
    const result = await runEval({
      prompts,
      rollouts,
      outDir,
      run: 'examples',
      judge: judgeAt(double.url),
      judgeBaseUrl: double.url,
      renderer,
      inspect: inspectCompletion,
      cache: join(dir, 'cache.sqlite'),
      concurrency: 4,
    });
    expect(result.probe?.reachable).toBe(true);
    expect(result.scored).toBe(rollouts.length);

    const lines = await readLines(join(outDir, 'results.jsonl'));
    expect(lines.map((l) => l.id)).toEqual(rollouts.map((r) => r.id));
    for (const rec of lines) {
      const s = rec.scores.universal!;
      expect(rec.run).toBe('examples');
      expect(rec.prompt).toBe(prompts.find((p) => p.id === rec.prompt_id)!.prompt);
      if (FAILURES[rec.id]) {
        expect(s).toMatchObject({ status: 'unscoreable', reason: FAILURES[rec.id], reward: 0 });
        expect(rec.image).toBeUndefined();
      } else {
        // The double answers 0.75 for every item, so the weighted mean is exactly 0.75.
        expect(s.status, `${rec.id}: ${s.message}`).toBe('ok');
        expect(s.reward).toBeCloseTo(0.75, 12);
        expect(s.criteria).toHaveLength(universalItems().length);
        expect(rec.image).toMatch(/^images\/.+\.png$/);
        expect(existsSync(join(outDir, rec.image!))).toBe(true);
      }
    }
    const rendered = rollouts.length - Object.keys(FAILURES).length;
    expect((await readdir(join(outDir, 'images'))).length).toBe(rendered);

    // Each judge call carried one picture and the prompt; identical pictures (the rocket is
    // drawn twice) are judged once.
    expect(double.requests.length).toBeGreaterThan(0);
    expect(double.requests.length).toBeLessThanOrEqual(rendered);
    for (const req of double.requests) {
      expect(req.images).toHaveLength(1);
      expect(req.images[0]).toMatch(/^data:image\/png;base64,/);
      expect(prompts.some((p) => req.text.includes(p.prompt))).toBe(true);
    }

    const summary = JSON.parse(await readFile(join(outDir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      run: 'examples',
      records: rollouts.length,
      prompts: prompts.length,
      kinds: ['universal'],
    });
    expect(summary.judge).toMatchObject({ reachable: true, base_url: double.url });
    const u = summary.rewards.universal;
    expect(u.render_success_rate).toBeCloseTo(rendered / rollouts.length, 12);
    expect(u.score_rendered.estimate).toBeCloseTo(0.75, 12);
    expect(u.score_all.estimate).toBeCloseTo((0.75 * rendered) / rollouts.length, 12);
    expect(u.unscoreable).toEqual({ truncated: 1, no_svg: 1 });
    expect(summary.usage.judge.calls).toBe(double.requests.length);

    // Resume: everything is done, nothing is judged again.
    double.reset();
    const again = await runEval({
      prompts,
      rollouts,
      outDir,
      run: 'examples',
      judge: judgeAt(double.url),
      judgeBaseUrl: double.url,
      renderer,
      inspect: inspectCompletion,
      cache: join(dir, 'cache.sqlite'),
    });
    expect(again).toMatchObject({ scored: 0, resumed: rollouts.length });
    // Elapsed covers both invocations, not only the last one.
    expect(again.summary.elapsed_parts).toBe(2);
    expect(again.summary.elapsed_ms).toBe(
      result.summary.elapsed_ms + again.summary.elapsed_last_ms,
    );
    expect(double.requests).toHaveLength(0);
    expect((await readLines(join(outDir, 'results.jsonl'))).length).toBe(rollouts.length);
  });

  it('still renders, checks and reports when the judge cannot be reached, then judges on re-run', async () => {
    const outDir = join(dir, 'offline');
    const closed = 'http://127.0.0.1:9/v1';
    const t0 = performance.now();
    const result = await runEval({
      prompts,
      rollouts,
      outDir,
      run: 'offline',
      judge: judgeAt(closed),
      judgeBaseUrl: closed,
      renderer,
      inspect: inspectCompletion,
      cache: false,
    });
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(result.probe).toMatchObject({ reachable: false, url: `${closed}/models` });
    const lines = await readLines(join(outDir, 'results.jsonl'));
    for (const rec of lines) {
      const s = rec.scores.universal!;
      expect(s.status).toBe(FAILURES[rec.id] ? 'unscoreable' : 'grader_error');
      expect(s.reason).toBe(FAILURES[rec.id] ?? 'judge_error');
      // Checks ran whatever happened to the judge.
      if (!FAILURES[rec.id]) {
        expect(s.checks.renders).toBe(true);
        expect(rec.image).toBeDefined();
        expect(s.message).toContain('not reached');
      }
    }
    const hack = lines.find((l) => l.id === 'p08#1')!.scores.universal!;
    expect(hack.checks.text_in_image).toBe(true);
    const clutter = lines.find((l) => l.id === 'p03#1')!.scores.universal!;
    expect(clutter.checks.clutter).toBe(true);

    const summary = JSON.parse(await readFile(join(outDir, 'summary.json'), 'utf8'));
    expect(summary.judge.reachable).toBe(false);
    expect(summary.rewards.universal.grader_errors).toEqual({ judge_error: rollouts.length - 2 });
    expect(summary.rewards.universal.score_rendered.estimate).toBeNull();
    const html = await readFile(join(outDir, 'report.html'), 'utf8');
    expect(html).toContain('The judge was not reachable: vllm:Qwen/Qwen3-VL-8B-Instruct');
    expect(html).toContain('vllm serve Qwen/Qwen3-VL-8B-Instruct');
    // Nothing was judged: the tiles say so instead of a score of 0 with a 0–0 interval.
    expect(summary.rewards.universal.score_all).toMatchObject({
      estimate: null,
      note: `none judged: 0 of ${rollouts.length} rollouts judged (${rollouts.length - 2} not judged, 2 failed before judging)`,
    });
    expect(html).toContain(`0 of ${rollouts.length} judged (${rollouts.length - 2} not judged`);
    expect(html).not.toMatch(/CI 0\.000–0\.000/);

    // The judge comes up: the same command re-judges exactly the rollouts not judged.
    double.reset();
    const rerun = await runEval({
      prompts,
      rollouts,
      outDir,
      run: 'offline',
      judge: judgeAt(double.url),
      judgeBaseUrl: double.url,
      renderer,
      inspect: inspectCompletion,
      cache: false,
    });
    expect(rerun.scored).toBe(rollouts.length - 2);
    const after = await readLines(join(outDir, 'results.jsonl'));
    expect(after).toHaveLength(rollouts.length);
    expect(after.filter((l) => l.scores.universal!.status === 'ok')).toHaveLength(
      rollouts.length - 2,
    );
  });

  it('scores with the instance rubrics too when they are given', async () => {
    // Test rubrics built from the RULER skeleton for the first five prompts only.
    const withRubric = prompts.slice(0, 5);
    const rubrics: RubricRecord[] = withRubric.map((p) => ({
      id: p.id,
      prompt: p.prompt,
      preset: 'ruler',
      items: getPreset('ruler').items.map((it) => ({
        key: it.key,
        axis: it.axis,
        title: it.title,
        description: `${it.focus} Here: ${p.prompt}.`,
        weight: it.weight,
        bands: BAND_RANGES.map((range) => ({ range, guide: `band ${range} for ${it.key}` })),
      })),
      ideal_svg: null,
      ideal_score: 0.95,
      kept: true,
      author: 'test',
      judge: 'test',
      usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
    }));
    const outDir = join(dir, 'ruler');
    double.reset();
    const result = await runEval({
      prompts,
      rollouts,
      outDir,
      run: 'ruler',
      judge: judgeAt(double.url),
      judgeBaseUrl: double.url,
      rubrics,
      renderer,
      inspect: inspectCompletion,
      cache: join(dir, 'cache.sqlite'),
    });
    expect(result.summary.kinds).toEqual(['universal', 'ruler']);
    const covered = new Set(withRubric.map((p) => p.id));
    for (const rec of result.records) {
      const ruler = rec.scores.ruler!;
      if (FAILURES[rec.id]) expect(ruler.reason).toBe(FAILURES[rec.id]);
      else if (covered.has(rec.prompt_id)) {
        expect(ruler.status).toBe('ok');
        expect(ruler.reward).toBeCloseTo(0.75, 12);
        expect(ruler.criteria.map((c) => c.weight)).toEqual([5, 5, 5, 4, 5, 5]);
      } else expect(ruler).toMatchObject({ status: 'unscoreable', reason: 'no_rubric' });
    }
    // The universal verdicts came from the cache of the first test: only ruler calls now.
    for (const req of double.requests) expect(req.text).toContain('concept_recognisability');
    const uncovered = rollouts.filter((r) => !covered.has(r.prompt_id!)).length;
    expect(result.summary.rewards.ruler!.grader_errors).toEqual({ no_rubric: uncovered });
    const html = await readFile(join(outDir, 'report.html'), 'utf8');
    expect(html).toContain('<select name="kind">');
  });

  it('writes a report that opens in chromium with every picture', async () => {
    const report = join(dir, 'judged', 'report.html');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
      expect(errors).toEqual([]);
      const lines = await readLines(join(dir, 'judged', 'results.jsonl'));
      const withImage = lines.filter((l) => l.image).length;
      const widths = await page.evaluate<number[]>(
        `Array.from(document.querySelectorAll('article.card img'), (e) => e.complete ? e.naturalWidth : 0)`,
      );
      expect(widths).toHaveLength(withImage);
      expect(widths.every((w) => w > 0)).toBe(true);
      expect(await page.locator('section.prompt').count()).toBe(prompts.length);
      await page.locator('input[name=outcome][value=scored]').uncheck();
      expect(await page.locator('article.card:not(.hidden)').count()).toBe(2);
    } finally {
      await browser.close();
    }
  });
});
