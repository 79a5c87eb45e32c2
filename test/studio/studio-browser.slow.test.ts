// The studio in real Chromium (Debian's, via playwright-core): a scripted rater does a
// blinded pairwise study and an absolute study with clicks and keys, reloads half-way, and
// the exports hold exactly what was clicked; the sides shown really are balanced and differ
// between raters; a triple ranking is clicked through; each view is screenshotted (into docs/
// with RUBRICA_UPDATE_SCREENSHOTS=1).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderAlignHtml } from '../../src/eval/align-html.ts';
import { mergeJudges } from '../../src/eval/align-load.ts';
import { alignJudges } from '../../src/eval/align-table.ts';
import { parseHuman, parsePredictions } from '../../src/eval/stats/align-input.ts';
import { type RunningStudio, startStudio } from '../../src/studio/start.ts';
import { parseStudy } from '../../src/studio/study.ts';
import { launchChromium } from '../report/browser.ts';
import { exampleRuns } from './example-runs.ts';

// The screenshots go to docs/ only when asked (RUBRICA_UPDATE_SCREENSHOTS=1): a test run
// must not leave the checkout changed. Otherwise they are still taken, into a temp folder.
const DOCS =
  process.env.RUBRICA_UPDATE_SCREENSHOTS === '1'
    ? new URL('../../docs/', import.meta.url).pathname
    : mkdtempSync(join(tmpdir(), 'rubrica-studio-shots-'));
let browser: Browser;
let ex: { root: string; runs: string[] };

beforeAll(async () => {
  ex = await exampleRuns();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await rm(ex.root, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  return browser.newPage({ viewport: { width: 1366, height: 768 } });
}

/** A small PNG for the docs: the laptop-sized screenshot scaled to 900 px wide. */
async function shot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot();
  await sharp(png)
    .resize({ width: 900 })
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(DOCS, name));
}

/** The picture keys on screen (null = the blank check picture), read from the image URLs. */
async function shown(page: Page, studio: RunningStudio): Promise<(string | null)[]> {
  const srcs = (await page.evaluate(
    "[...document.querySelectorAll('.pic img')].map((i) => i.getAttribute('src'))",
  )) as string[];
  return srcs.map((src) => {
    const n = src.split('/').pop()!;
    return n === 'blank' ? null : studio.store.itemByNumber(Number(n))!.key;
  });
}

async function progress(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId('count').textContent()) ?? '';
  const [done, total] = text.split('/').map((x) => Number(x.trim()));
  return [done!, total!];
}

/** Waits until the page shows `done` answered tasks. */
async function waitDone(page: Page, done: number): Promise<void> {
  await page.waitForFunction(
    `document.querySelector('[data-testid="count"]')?.textContent?.startsWith('${done} /')`,
  );
}

describe('rubrica studio in Chromium', () => {
  it('pairwise: clicks and keys, a reload mid-way, export equals the clicks, sides balanced', async () => {
    const study = parseStudy({
      name: 'pairwise example',
      kind: 'pairwise',
      seed: 11,
      raters: ['ann', 'bob'],
      repeat_share: 0.2,
      attention_checks: 2,
    });
    const studio = await startStudio({
      runs: ex.runs,
      study,
      db: join(ex.root, 'pw.sqlite'),
      port: 0,
    });
    try {
      const page = await newPage();
      const annUrl = studio.raterUrls.find((r) => r.name === 'ann')!.url;
      await page.goto(annUrl);
      await page.getByTestId('prompt').waitFor();
      await shot(page, 'studio-pairwise.png');
      const [, total] = await progress(page);
      const clicks: { left: string | null; right: string | null; winner: 'a' | 'b' | 'tie' }[] = [];
      const promptOf = (k: string | null) => (k === null ? null : studio.store.item(k)!.prompt_id);
      for (let i = 0; i < total; i++) {
        if (i === 5) {
          await page.reload();
          await page.getByTestId('prompt').waitFor();
          expect((await progress(page))[0]).toBe(5);
        }
        const [left = null, right = null] = await shown(page, studio);
        // The rater prefers model-a, ties two pictures of one run, and picks the real
        // on-prompt picture in a check. Half the answers by key, half by click.
        let winner: 'a' | 'b' | 'tie';
        if (left === null || right === null) winner = left === null ? 'b' : 'a';
        else if (promptOf(left) !== promptOf(right)) {
          const prompt = (await page.getByTestId('prompt').textContent())!.replace(/[“”]/g, '');
          winner = studio.store.item(left)!.prompt === prompt ? 'a' : 'b';
        } else if (left.startsWith('model-a/') === right.startsWith('model-a/')) winner = 'tie';
        else winner = left.startsWith('model-a/') ? 'a' : 'b';
        clicks.push({ left, right, winner });
        const key = i % 2 === 0;
        if (winner === 'tie')
          await (key ? page.keyboard.press('t') : page.getByTestId('tie').click());
        else if (winner === 'a')
          await (key
            ? page.keyboard.press(i % 4 === 0 ? '1' : 'ArrowLeft')
            : page.getByTestId('pic-0').click());
        else
          await (key
            ? page.keyboard.press(i % 4 === 0 ? '2' : 'ArrowRight')
            : page.getByTestId('pic-1').click());
        if (i < total - 1) await waitDone(page, i + 1);
      }
      await page.getByTestId('done').waitFor();

      // The export holds every non-check answer, in order, as clicked.
      const res = await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`);
      const exported = parseHuman(await res.text()).pairwise.filter((v) => v.rater === 'ann');
      const real = clicks.filter(
        (c) => c.left !== null && c.right !== null && promptOf(c.left) === promptOf(c.right),
      );
      expect(exported.map((v) => [v.a, v.b, v.winner])).toEqual(
        real.map((c) => [c.left, c.right, c.winner]),
      );
      const csv = await (
        await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.csv`)
      ).text();
      expect(parseHuman(csv, 'x.csv').pairwise).toEqual(
        parseHuman(await (await fetch(res.url)).text()).pairwise,
      );

      // Sides as the browser showed them: model-a on the left in half the first showings.
      const tasks = studio.store.tasks('ann');
      const firstShowings = tasks.filter((t) => !t.repeat && t.check === null);
      const leftA = real.filter(
        (c, i) =>
          i < real.length &&
          firstShowings.some((t) => t.items[0] === c.left && t.items[1] === c.right) &&
          c.left!.startsWith('model-a/'),
      );
      expect(Math.abs(2 * leftA.length - firstShowings.length)).toBeLessThanOrEqual(1);
      // Randomised per rater: bob sees other pairs flipped than ann.
      const flipped = (r: string) =>
        studio.store
          .tasks(r)
          .filter((t) => !t.repeat && t.check === null && t.items[0]!.startsWith('model-b/'))
          .map((t) => t.unit)
          .sort();
      expect(flipped('bob')).not.toEqual(flipped('ann'));

      // bob answers by API, always the left picture, so the admin view has two raters to compare.
      const bobTok = studio.raterUrls.find((r) => r.name === 'bob')!.url.split('/r/')[1];
      for (const t of studio.store.tasks('bob'))
        await fetch(`${studio.url}/api/r/${bobTok}/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            seq: t.seq,
            answer: { choice: 0 },
          }),
        });
      await page.goto(studio.adminUrl);
      await page.getByTestId('progress-bob').waitFor();
      await page.waitForFunction(
        `document.querySelector('[data-testid="tile-kappa"]')?.textContent !== '–'`,
      );
      expect(await page.getByTestId('progress-ann').textContent()).toBe(`${total} / ${total}`);
      const checks = tasks.filter((t) => t.check !== null).length;
      expect(await page.getByTestId('checks-ann').textContent()).toBe(`${checks} / ${checks}`);
      await shot(page, 'studio-admin.png');

      // The study's export through align's HTML view, as docs/human-studies.md walks it: the
      // runs' own scores as one judge (the same name twice merges the two runs' files).
      const { readFile } = await import('node:fs/promises');
      const judge = mergeJudges(
        await Promise.all(
          ex.runs.map(async (r) => ({
            name: 'universal',
            predictions: parsePredictions(await readFile(join(r, 'results.jsonl'), 'utf8')),
          })),
        ),
      );
      const table = alignJudges(judge, parseHuman(await (await fetch(res.url)).text()), {
        resamples: 200,
      });
      expect(table.judges[0]!.pairwise!.votes).toBe(exported.length * 2);
      await page.setContent(renderAlignHtml(table, 'pairwise example: judge vs people'));
      expect(await page.locator('table.align tbody tr').count()).toBeGreaterThan(0);
      await shot(page, 'align-html.png');
      await page.close();
    } finally {
      await studio.close();
    }
  }, 120_000);

  it('absolute: slider by keys and drag, per-criterion sliders, reload, export equals the ratings', async () => {
    const study = parseStudy({
      name: 'absolute example',
      kind: 'absolute',
      seed: 4,
      raters: ['cy'],
      repeat_share: 0.2,
      attention_checks: 1,
      criteria: [{ id: 'prompt', text: 'Matches the prompt' }],
    });
    const studio = await startStudio({
      runs: ex.runs,
      study,
      db: join(ex.root, 'abs.sqlite'),
      port: 0,
    });
    try {
      const page = await newPage();
      await page.goto(studio.raterUrls[0]!.url);
      await page.getByTestId('prompt').waitFor();
      await shot(page, 'studio-absolute.png');
      const [, total] = await progress(page);
      const given: { key: string | null; score: number; prompt: number }[] = [];
      for (let i = 0; i < total; i++) {
        if (i === 3) {
          await page.reload();
          await page.getByTestId('prompt').waitFor();
        }
        const [key = null] = await shown(page, studio);
        // Save stays disabled until the rater moves the overall slider.
        expect(await page.getByTestId('send').isDisabled()).toBe(true);
        let score: number;
        if (key === null) {
          score = 0;
          await page.keyboard.press('0');
        } else if (i % 2 === 0) {
          score = (i % 9) * 10 + 5;
          await page.keyboard.press(String(i % 9)); // → (i % 9)·10
          await page.keyboard.press('ArrowRight'); // +5
        } else {
          score = 37 + i;
          await page.getByTestId('slider-score').fill(String(score));
        }
        const prompt = 20 + i;
        await page.getByTestId('slider-prompt').fill(String(prompt));
        given.push({ key, score, prompt });
        await (i % 2 === 0 ? page.keyboard.press('Enter') : page.getByTestId('send').click());
        if (i < total - 1) await waitDone(page, i + 1);
      }
      await page.getByTestId('done').waitFor();
      const jsonl = await (
        await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`)
      ).text();
      const rows = jsonl
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const expected = given.filter((g) => g.key !== null);
      expect(rows.map((r) => [r.id, r.score, r.criteria.prompt])).toEqual(
        expected.map((g) => [g.key, g.score, g.prompt]),
      );
      // align reads it: the first rating of each item, repeats left to self-agreement.
      const h = parseHuman(jsonl);
      expect(h.absolute.length).toBe(rows.filter((r) => !r.repeat).length);
      const stats = (await (
        await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/stats`)
      ).json()) as { stats: { raters: unknown[] } };
      // The blank check was rated 0 (≤ 25): passed.
      expect(stats.stats.raters[0]).toMatchObject({ checks: 1, checks_passed: 1 });
      await page.close();
    } finally {
      await studio.close();
    }
  }, 120_000);

  it('triple ranking: click best to worst, exported as three pairwise votes', async () => {
    const study = parseStudy({
      name: 'triple example',
      kind: 'triple',
      seed: 2,
      raters: ['dee'],
      repeat_share: 0,
      attention_checks: 0,
    });
    const studio = await startStudio({
      runs: ex.runs,
      study,
      db: join(ex.root, 'tri.sqlite'),
      port: 0,
    });
    try {
      const page = await newPage();
      await page.goto(studio.raterUrls[0]!.url);
      await page.getByTestId('prompt').waitFor();
      const [, total] = await progress(page);
      expect(total).toBeGreaterThan(0);
      const keys = await shown(page, studio);
      // Rank right-to-left: the third picture best; the last one is placed by itself.
      await page.getByTestId('pic-2').click();
      await page.keyboard.press('2');
      await shot(page, 'studio-triple.png');
      await page.keyboard.press('Enter');
      if (total > 1) await waitDone(page, 1);
      const rows = (
        await (
          await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`)
        ).text()
      )
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(rows.map((r) => [r.a, r.b, r.winner])).toEqual([
        [keys[0], keys[1], 'b'],
        [keys[0], keys[2], 'b'],
        [keys[1], keys[2], 'b'],
      ]);
      await page.close();
    } finally {
      await studio.close();
    }
  }, 60_000);
});
