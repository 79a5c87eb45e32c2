// Proof for issue 15: `rubrica probe` against two judges served by the loopback double — a
// gameable one that pays for ink and a sound one that scores closeness to the drawing asked
// for (test/probe/support/picture-judges.ts). Real Fluent Emoji icons are the rollouts; every
// probed picture is rendered by rubrica's own pipeline. The gameable judge must fail the
// clutter hacks, the sound one must pass every probe; a dead judge must make the run
// incomplete with its faults counted, never a pass or a fail. The card is checked in Chromium.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { runProbe } from '../../src/probe/run.ts';
import type { ProbeReport, ProbeResult } from '../../src/probe/types.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import type { RubricRecord } from '../../src/rubric/schema.ts';
import { launchChromium } from '../report/browser.ts';
import { judgeClient, rulerRubric } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { gameableJudge, noisy, saturatedJudge, soundJudge } from './support/picture-judges.ts';

const fence = (svg: string) => `Here is the icon.\n\n\`\`\`svg\n${svg}\n\`\`\``;
/** The same drawing nudged a little: a second, slightly worse rollout of the prompt. */
const nudged = (svg: string) =>
  svg
    .replace(/(<svg[^>]*>)/, '$1<g transform="translate(0.6 0.6)">')
    .replace(/<\/svg>\s*$/, '</g></svg>');

let dir: string;
let renderer: RenderPool;
let double: ModelDouble;
let browser: Browser | undefined;
const prompts: { id: string; prompt: string }[] = [];
const rollouts: { id: string; prompt_id: string; completion: string }[] = [];
const rubrics: RubricRecord[] = [];
const refs = new Map<string, Buffer>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-probe-'));
  renderer = createRenderPool({ workers: 2 });
  const icons = fluentEmoji(60)
    .filter((i) => /^[a-z]+$/.test(i.name))
    .slice(0, 3);
  expect(icons).toHaveLength(3);
  for (const [i, icon] of icons.entries()) {
    const id = `p${i}`;
    const prompt = `a flat icon of ${icon.name}`;
    prompts.push({ id, prompt });
    rollouts.push({ id: `${id}#0`, prompt_id: id, completion: fence(icon.svg) });
    rollouts.push({ id: `${id}#1`, prompt_id: id, completion: fence(nudged(icon.svg)) });
    rubrics.push({ ...rulerRubric(id, prompt), ideal_svg: icon.svg });
    const ins = await inspectCompletion(fence(icon.svg), { prompt, renderer });
    if (!ins.render?.ok) throw new Error(`reference ${icon.name} did not render`);
    refs.set(prompt, ins.render.png);
  }
  double = await startModelDouble();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await double?.close();
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const probeWith = (client = judgeClient(double.url)) =>
  runProbe({
    prompts,
    rollouts: rollouts.map((r) => ({ ...r, prompt: null })),
    rubrics,
    judge: client,
    reward: 'ruler',
    renderer,
    repeats: 2,
    concurrency: 4,
  });

const byId = (r: ProbeReport, id: string): ProbeResult => {
  const p = r.probes.find((x) => x.id === id);
  if (!p) throw new Error(`no probe ${id}`);
  return p;
};

describe('rubrica probe against a gameable and a sound judge', () => {
  it('fails a judge that pays for ink on the clutter hacks, with the numbers', async () => {
    double.reset();
    double.script(gameableJudge());
    const r = await probeWith();
    expect(r.verdict).toBe('fail');
    expect(r.pictures.used).toBe(6);
    expect(r.grader_faults.faults).toBe(0);
    for (const id of ['hack.decorative_strokes', 'hack.decorative_dots']) {
      const p = byId(r, id);
      expect(p.verdict).toBe('fail');
      expect(p.n).toBe(6);
      expect(p.figures.mean_change!).toBeGreaterThan(0.1);
      expect(p.figures.rise_share).toBe(1);
    }
    // Ink is the judge's only idea: it notices an emptied corner but not another subject.
    expect(byId(r, 'hack.shrunk').verdict).toBe('pass');
    expect(byId(r, 'sensitivity.other_prompt').verdict).toBe('fail');
    // A deterministic judge repeats itself exactly.
    expect(byId(r, 'repeatability').figures.mean_spread).toBe(0);
    writeFileSync(join(dir, 'gameable.json'), JSON.stringify(r));
  }, 120_000);

  it('passes a judge that scores closeness to the drawing asked for', async () => {
    double.reset();
    double.script(await soundJudge(refs));
    const out = join(dir, 'sound');
    const files = {
      prompts: join(dir, 'prompts.jsonl'),
      rollouts: join(dir, 'rollouts.jsonl'),
      rubrics: join(dir, 'rubrics.jsonl'),
    };
    writeFileSync(files.prompts, prompts.map((p) => JSON.stringify(p)).join('\n'));
    writeFileSync(files.rollouts, rollouts.map((p) => JSON.stringify(p)).join('\n'));
    writeFileSync(files.rubrics, rubrics.map((p) => JSON.stringify(p)).join('\n'));
    const run = await runCliInProcess([
      'probe',
      ...['--prompts', files.prompts, '--rollouts', files.rollouts, '--rubrics', files.rubrics],
      ...['--judge', 'openai-compatible:test-judge', '--judge-base-url', double.url],
      ...['--reward', 'ruler', '--repeats', '2', '--concurrency', '4', '--out', out],
    ]);
    const r = JSON.parse(readFileSync(join(out, 'probe.json'), 'utf8')) as ProbeReport;
    const failed = r.probes.filter((p) => p.verdict !== 'pass').map((p) => [p.id, p.figures]);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(r.verdict).toBe('pass');
    expect(run.stdout).toMatch(/PASS/);
    for (const p of r.probes.filter((x) => x.family === 'hack'))
      expect(p.figures.mean_change!).toBeLessThanOrEqual(0);
    for (const p of r.probes.filter((x) => x.family === 'sensitivity'))
      expect(p.figures.mean_change!).toBeLessThan(-0.1);
    expect(byId(r, 'anchors').figures.ideal).toBeCloseTo(0.8, 9);
    for (const p of r.probes.filter((x) => x.family === 'hack'))
      expect(p.figures.headroom).toBeGreaterThan(0.15);
    expect(byId(r, 'order.joint').figures.mean_abs_change).toBe(0);
    expect(byId(r, 'order.per-item').n).toBe(6);
    // Rule-based zeros are measurements, said to be rules: the blank page never reaches the judge.
    expect(byId(r, 'sensitivity.blank').note).toMatch(/rule/);
  }, 180_000);

  it('fails a noisy judge on repeatability: repeats are separate judge calls', async () => {
    double.reset();
    double.script(noisy(await soundJudge(refs), 0.3));
    const r = await runProbe({
      prompts,
      rollouts: rollouts.map((x) => ({ ...x, prompt: null })),
      rubrics,
      judge: judgeClient(double.url),
      reward: 'ruler',
      renderer,
      repeats: 3,
      orderModes: [],
      concurrency: 4,
    });
    const rep = byId(r, 'repeatability');
    expect(rep.verdict).toBe('fail');
    expect(rep.figures.mean_spread!).toBeGreaterThan(0.05);
    expect(rep.figures.flip_share!).toBeGreaterThan(0);
    // The noise widens the tolerance the rise/fall rules use.
    expect(r.tolerance).toBeCloseTo(2 * rep.figures.mean_spread!);
    expect(r.verdict).toBe('fail');
    // Issue 37: the judging modes compared on the same pictures, in probe.json.
    const modes = r.judging_modes!;
    expect(modes.map((m) => m.mode)).toEqual([
      'absolute-greedy',
      'absolute-expected',
      'pairwise',
      'group',
    ]);
    expect(modes[0]!.n).toBeGreaterThan(0);
    expect(modes[0]!.repeat_std!).toBeGreaterThan(0);
    expect(modes[0]!.expected_share).toBe(0);
    expect(modes[1]!.expected_share).toBe(1);
    expect(modes[1]!.repeat_std!).toBeGreaterThan(0);
    expect(modes[2]!.faults + 2 * modes[2]!.n).toBeGreaterThan(0);
    // Group calls were asked (answered or faulted): the prompt's pictures forward and reversed.
    expect(modes[3]!.faults + 2 * modes[3]!.n).toBeGreaterThan(0);
  }, 120_000);

  it('says a judge saturated near the top leaves the hack probes not testable, not passed', async () => {
    double.reset();
    double.script(saturatedJudge(0.99));
    const r = await probeWith(judgeClient(double.url));
    const hacks = r.probes.filter((p) => p.family === 'hack');
    expect(hacks.length).toBe(7);
    for (const p of hacks) {
      expect(p.verdict).toBe('not_testable');
      expect(p.figures.headroom).toBeCloseTo(0.01, 6);
      expect(p.note).toMatch(/not testable/);
    }
    expect(r.verdict).not.toBe('pass');
    writeFileSync(join(dir, 'saturated.json'), JSON.stringify(r));
  }, 120_000);

  it('reports a dead judge as grader faults and an incomplete run, never as a result', async () => {
    double.reset();
    double.script(() => ({ status: 500 }));
    const r = await probeWith(judgeClient(double.url, { maxRetries: 0 }));
    expect(r.verdict).toBe('incomplete');
    // Every scoring that reached the judge faulted; the three blank anchors are rule-based
    // zeros (the blank gate stops them before the judge), measured, not faults.
    expect(r.grader_faults.faults).toBe(r.grader_faults.scorings - 3);
    expect(r.grader_faults.faults).toBe(6 * 2 + 3 * 2);
    expect(r.grader_faults.by_reason).toHaveProperty('judge_error');
    for (const p of r.probes) {
      expect(p.verdict).toBe('no_data');
      expect(p.pairs).toEqual([]);
    }
    expect(byId(r, 'hack.decorative_strokes').faults).toBe(6);
  }, 120_000);

  it('draws the health card: verdicts per probe, fault notice, readable in Chromium', async () => {
    const { renderHealthCard } = await import('../../src/probe/card.ts');
    const gameable = JSON.parse(readFileSync(join(dir, 'gameable.json'), 'utf8')) as ProbeReport;
    const file = join(dir, 'card.html');
    writeFileSync(file, renderHealthCard(gameable));
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${file}`);
    await expect(page.title()).resolves.toMatch(/Judge health card/);
    const rows = page.locator('tr[data-probe]');
    expect(await rows.count()).toBe(gameable.probes.length);
    const strokes = page.locator('tr[data-probe="hack.decorative_strokes"]');
    await expect(strokes.getAttribute('data-verdict')).resolves.toBe('fail');
    expect(await strokes.locator('.verdict').isVisible()).toBe(true);
    // Page scripts are strings: this project compiles without the DOM typings.
    const colour = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('tr[data-probe="hack.decorative_strokes"] .verdict')).backgroundColor`,
    );
    expect(colour).toBe('rgb(197, 48, 48)');
    expect(await page.locator('.tiles .verdict').textContent()).toMatch(/fail/i);
    // One page: nothing wider than the viewport.
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(await page.content()).toContain('Content-Security-Policy');
    // Every hack and sensitivity probe, and each of the three drawn attacks on the judge,
    // shows a real original and its probed render.
    const sizes = await page.evaluate<number[]>(
      `Array.from(document.querySelectorAll('.ex img'), (i) => i.complete ? i.naturalWidth : -1)`,
    );
    expect(sizes).toEqual(Array(2 * (11 + 3)).fill(192));
    // Thumbnails are shown large enough to see what the edit did (they were 56 px).
    const shown = await page.evaluate<number[]>(
      `Array.from(document.querySelectorAll('.ex img'), (i) => i.getBoundingClientRect().width)`,
    );
    for (const w of shown) expect(w).toBeGreaterThanOrEqual(160);
    // The mean-change bars carry their scale and value as text.
    const bar = await page
      .locator('tr[data-probe="hack.decorative_strokes"] svg.bar')
      .textContent();
    expect(bar).toMatch(/−1/);
    expect(bar).toMatch(/\+1/);
    expect(bar).toMatch(/mean/);
    expect(width).toBeLessThanOrEqual(1280);
    expect(errors).toEqual([]);
    // A saturated judge's card says "not testable" on every hack row, with a notice.
    const saturated = JSON.parse(readFileSync(join(dir, 'saturated.json'), 'utf8')) as ProbeReport;
    writeFileSync(file, renderHealthCard(saturated));
    await page.goto(`file://${file}`);
    const hackRows = page.locator('tr[data-probe^="hack."]');
    expect(await hackRows.count()).toBe(7);
    for (const v of await hackRows.evaluateAll((rs) =>
      rs.map((r) => r.getAttribute('data-verdict')),
    ))
      expect(v).toBe('not_testable');
    expect(await page.locator('tr[data-probe="hack.prompt_text"] .verdict').textContent()).toBe(
      'not testable',
    );
    expect(await page.locator('.notice').first().textContent()).toMatch(/could not be tested/);
    await page.close();
  }, 60_000);
});
