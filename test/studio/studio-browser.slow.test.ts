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
import { pictureAddress } from '../../src/studio/addresses.ts';
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

/**
 * The picture keys on screen (null = the blank check picture): the page only has opaque
 * per-showing addresses, so the test maps them back with the study's secret, as the server does.
 */
async function shown(page: Page, studio: RunningStudio, rater: string): Promise<(string | null)[]> {
  const srcs = (await page.evaluate(
    "[...document.querySelectorAll('.pic img')].map((i) => i.getAttribute('src'))",
  )) as string[];
  return srcs.map((src) => {
    const addr = src.split('/').pop()!;
    for (const t of studio.store.tasks(rater))
      for (let pos = 0; pos < t.items.length; pos++)
        if (pictureAddress(studio.store.pictureSecret, rater, t.seq, pos) === addr)
          return t.items[pos]!;
    throw new Error(`no showing has address ${addr}`);
  });
}

/** Waits until the screen's pictures are shown and the minimum look time has passed. */
async function looked(page: Page): Promise<void> {
  await page.waitForSelector('#task[data-looked="1"]');
}

/** Reads the instructions, starts, and answers the practice screens with the left picture / 50. */
async function startAndPractise(
  page: Page,
  kind: 'pairwise' | 'absolute' | 'triple',
): Promise<number> {
  await page.getByTestId('instructions').waitFor();
  await page.getByTestId('start').click();
  let n = 0;
  for (;;) {
    await page.getByTestId('prompt').waitFor();
    if ((await page.getByTestId('practice').count()) === 0) return n;
    expect(await page.getByTestId('practice').textContent()).toMatch(
      /^Practice \d of \d — not counted$/,
    );
    expect((await progress(page))[0]).toBe(0);
    await looked(page);
    if (kind === 'pairwise') await page.keyboard.press('1');
    else if (kind === 'absolute') {
      await page.keyboard.press('5');
      await page.keyboard.press('Enter');
    } else {
      await page.keyboard.press('1');
      await page.keyboard.press('2');
      await page.keyboard.press('Enter');
    }
    n++;
    await page.waitForFunction(
      `!document.querySelector('[data-testid="practice"]') || document.querySelector('[data-testid="practice"]').textContent.startsWith('Practice ${n + 1} ')`,
    );
  }
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
      // Practice screens first, marked and not counted; the export has none of them.
      expect(await startAndPractise(page, 'pairwise')).toBe(2);
      await looked(page);
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
        await looked(page);
        const [left = null, right = null] = await shown(page, studio, 'ann');
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
      const bobApi = (path: string, body: unknown) =>
        fetch(`${studio.url}/api/r/${bobTok}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ task: { seq: number } | null }>);
      let bobAt = await bobApi('/start', {});
      while (bobAt.task)
        bobAt = await bobApi('/answer', { seq: bobAt.task.seq, answer: { choice: 0 }, ms: 1200 });
      await page.goto(studio.adminUrl);
      await page.getByTestId('progress-bob').waitFor();
      await page.waitForFunction(
        `document.querySelector('[data-testid="tile-kappa"]')?.textContent !== '–'`,
      );
      expect(await page.getByTestId('progress-ann').textContent()).toBe(`${total} / ${total}`);
      const checks = tasks.filter((t) => t.check !== null).length;
      expect(await page.getByTestId('checks-ann').textContent()).toBe(`${checks} / ${checks}`);
      // Each check's result, the timing and the per-run win rates are on the admin page.
      expect(await page.getByTestId('check-results-ann').textContent()).toMatch(
        /^✓ (blank|off-prompt), ✓ (blank|off-prompt)$/,
      );
      expect(await page.getByTestId('median-ann').textContent()).toMatch(/^\d+\.\d s$/);
      expect(await page.getByTestId('run-model-a').textContent()).toMatch(/^0\.\d{3}|1\.000$/);
      expect(await page.getByTestId('run-ci-model-a').textContent()).toMatch(
        /^\[\d\.\d{3}, \d\.\d{3}\]$/,
      );
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
      practice: 1,
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
      expect(await startAndPractise(page, 'absolute')).toBe(1);
      await looked(page);
      await shot(page, 'studio-absolute.png');
      const [, total] = await progress(page);
      const given: { key: string | null; score: number; prompt: number | null }[] = [];
      for (let i = 0; i < total; i++) {
        if (i === 3) {
          await page.reload();
          await page.getByTestId('prompt').waitFor();
        }
        await looked(page);
        const [key = null] = await shown(page, studio, 'cy');
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
        // Every third screen leaves the criterion untouched: the page shows "–", the
        // answer says null (it used to be saved as 50).
        const prompt = i % 3 === 2 ? null : 20 + i;
        if (prompt !== null) await page.getByTestId('slider-prompt').fill(String(prompt));
        else expect(await page.getByTestId('val-prompt').textContent()).toBe('–');
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

  it('a held key, a key pressed before the screen was seen and a double click answer once; undo takes back the last answer', async () => {
    const study = parseStudy({
      name: 'keys example',
      kind: 'pairwise',
      seed: 9,
      raters: ['eve'],
      repeat_share: 0,
      attention_checks: 0,
      practice: 0,
    });
    const studio = await startStudio({
      runs: ex.runs,
      study,
      db: join(ex.root, 'keys.sqlite'),
      port: 0,
    });
    try {
      const page = await newPage();
      await page.goto(studio.raterUrls[0]!.url);
      await startAndPractise(page, 'pairwise');
      const answered = () => studio.store.tasks('eve').filter((t) => t.answer !== null).length;
      // Hold "1": the press answers screen 0; the auto-repeat keydowns (repeat: true) that
      // keep coming once screen 1 is up and looked at must not answer it.
      await looked(page);
      await page.keyboard.down('1');
      await waitDone(page, 1);
      await looked(page);
      for (let r = 0; r < 5; r++) await page.keyboard.down('1');
      await page.keyboard.up('1');
      await page.waitForTimeout(500);
      expect(answered()).toBe(1);
      // A fresh press the moment the next screen arrives (before its pictures have been on
      // screen for the minimum time) is ignored too.
      await page.keyboard.press('2');
      await waitDone(page, 2);
      await page.keyboard.press('2');
      await page.waitForTimeout(800);
      expect(answered()).toBe(2);
      // A double click on a picture answers one screen, not two.
      await looked(page);
      await page.getByTestId('pic-0').dblclick();
      await waitDone(page, 3);
      await page.waitForTimeout(800);
      expect(answered()).toBe(3);
      // Every stored answer came at least the minimum look time after its screen.
      for (const t of studio.store.tasks('eve').filter((x) => x.answer))
        expect(t.ms!).toBeGreaterThanOrEqual(400);

      // Undo (U) takes back the third answer and shows that screen again; answered anew.
      const third = studio.store.tasks('eve').find((t) => t.seq === 2)!;
      await looked(page);
      expect(await page.getByTestId('undo').isVisible()).toBe(true);
      await page.keyboard.press('u');
      await waitDone(page, 2);
      expect(await shown(page, studio, 'eve')).toEqual(third.items);
      // One step only: the button is gone until this screen is answered again.
      expect(await page.getByTestId('undo').count()).toBe(0);
      await looked(page);
      await page.getByTestId('tie').click();
      await waitDone(page, 3);
      const rows = (
        await (
          await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`)
        ).text()
      )
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(rows.map((r) => r.winner)).toEqual(['a', 'b', 'tie']);
      await page.close();
    } finally {
      await studio.close();
    }
  }, 90_000);

  it('triple ranking: click best to worst, exported as three pairwise votes', async () => {
    const study = parseStudy({
      name: 'triple example',
      kind: 'triple',
      seed: 2,
      raters: ['dee'],
      repeat_share: 0,
      attention_checks: 0,
      practice: 0,
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
      expect(await startAndPractise(page, 'triple')).toBe(0);
      const [, total] = await progress(page);
      expect(total).toBeGreaterThan(0);
      await looked(page);
      const keys = await shown(page, studio, 'dee');
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
