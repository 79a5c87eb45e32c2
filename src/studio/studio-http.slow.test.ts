// The studio over real loopback HTTP and a real SQLite file (slow: several server starts):
// token rules, answers surviving a restart, exports that align reads, and the agreement the
// admin view shows.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuns, type StudioFixture } from '../../test/studio/fixture.ts';
import { alignJudges } from '../eval/align-table.ts';
import { parseHuman, parsePredictions } from '../eval/stats/align-input.ts';
import { startStudio } from './start.ts';
import { parseStudy } from './study.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read the API's JSON loosely
type Json = any;
const json = (r: Response): Promise<Json> => r.json();

let fx: StudioFixture;
beforeAll(async () => {
  fx = await makeRuns();
});
afterAll(async () => {
  await rm(fx.root, { recursive: true, force: true });
});

describe('studio over HTTP', () => {
  it('serves raters under their own token, keeps answers across a restart, exports what align reads', async () => {
    const study = parseStudy({
      name: 'pw',
      kind: 'pairwise',
      seed: 2,
      per_prompt: 1,
      raters: ['ann', 'bob'],
      repeat_share: 0.34,
      attention_checks: 1,
    });
    const db = join(fx.root, 'pw.sqlite');
    let studio = await startStudio({ runs: fx.runs, study, db, port: 0 });
    const [ann, bob] = studio.raterUrls.map((r) => r.url.split('/r/')[1]!);
    const api = (tok: string, path: string, body?: unknown) =>
      fetch(
        `${studio.url}/api/r/${tok}${path}`,
        body === undefined
          ? {}
          : {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
      );

    expect((await fetch(`${studio.url}/r/not-a-token`)).status).toBe(401);
    expect((await fetch(`${studio.url}/api/admin/${ann}/stats`)).status).toBe(401);
    // Instructions first: no screen is handed out before the rater starts.
    const intro = await json(await api(ann!, '/next'));
    expect(intro.instructions).toBe(true);
    expect(intro.task).toBeNull();
    expect(intro.study.instructions).toMatch(/two pictures/);
    await api(ann!, '/start', {});
    await api(bob!, '/start', {});
    const first = await json(await api(ann!, '/next'));
    expect(first.total).toBe(6 + 2 + 1); // practice screens are not counted
    expect(first.practice_total).toBe(2);
    expect(first.task.practice).toBe(true);
    expect(first.task.images).toHaveLength(2);
    // Nothing about runs or file names reaches the rater.
    expect(JSON.stringify(first)).not.toMatch(/model-|p\d#|\.png/);
    const img = await fetch(`${studio.url}${first.task.images[0]}`);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${studio.url}/img/nobody/1`)).status).toBe(401);

    // ann always picks the picture from model-a (its pictures have blue = 20); bob the left one.
    const tasksOf = (name: string) => studio.store.tasks(name);
    const answerAll = async (tok: string, name: string, stopAfter = Infinity) => {
      let n = 0;
      for (;;) {
        const s = await json(await api(tok, '/next'));
        if (!s.task || n >= stopAfter) return;
        const t = tasksOf(name).find((x) => x.seq === s.task.seq)!;
        const choice = name === 'bob' ? 0 : t.items[0]?.startsWith('model-a/') ? 0 : 1;
        const r = await api(tok, '/answer', { seq: s.task.seq, answer: { choice }, ms: 5 });
        expect(r.status).toBe(200);
        n++;
      }
    };
    await answerAll(ann!, 'ann', 6); // 2 practice screens + 4 real ones
    // A bad answer is refused and stores nothing.
    const bad = await api(ann!, '/answer', { seq: 0, answer: { choice: 2 } });
    expect(bad.status).toBe(400);
    // A repeated post of an answered task keeps the first answer.
    const again = await json(
      await api(ann!, '/answer', {
        seq: tasksOf('ann').find((t) => t.answer)!.seq,
        answer: { choice: 'tie' },
      }),
    );
    expect(again.stored).toBe(false);
    expect(again.done).toBe(4);
    expect(again.practice_done).toBe(2);

    // Restart from the same database: progress is where it was.
    await studio.close();
    studio = await startStudio({ runs: fx.runs, study, db, port: 0 });
    expect((await json(await api(ann!, '/next'))).done).toBe(4);
    await answerAll(ann!, 'ann');
    await answerAll(bob!, 'bob');

    const stats = await json(
      await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/stats`),
    );
    const s = stats.stats;
    expect(s.shared_units).toBe(6);
    // Every answer came 5 ms after its screen by the page's clock: all flagged too fast.
    expect(s.too_fast_ms).toBe(1000);
    for (const r of s.raters) expect(r.too_fast).toBe(r.done);
    const annStats = s.raters.find((r: { name: string }) => r.name === 'ann');
    // ann is consistent (same model every time).
    expect(annStats.self_agreement).toBe(1);
    // Her check score, recounted here: a check passes when the chosen picture is real and on-prompt.
    const annChecks = tasksOf('ann').filter((t) => t.check !== null);
    const passed = annChecks.filter((t) => {
      const k = t.items[(t.answer as { choice: 0 | 1 }).choice];
      return k !== null && studio.store.item(k!)!.prompt_id === t.prompt_id;
    }).length;
    expect(annStats.checks).toBe(annChecks.length);
    expect(annStats.checks_passed).toBe(passed);
    expect(annStats.done).toBe(annStats.total);
    // bob always picks the left picture: his repeats are shown reversed, so he disagrees with himself.
    expect(s.raters.find((r: { name: string }) => r.name === 'bob').self_agreement).toBe(0);
    expect(s.fleiss_kappa).not.toBeNull();

    const jsonl = await (
      await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`)
    ).text();
    const csv = await (
      await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.csv`)
    ).text();
    const fromJsonl = parseHuman(jsonl);
    const fromCsv = parseHuman(csv, 'study.csv');
    expect(fromJsonl.issues).toEqual([]);
    expect(fromCsv.pairwise).toEqual(fromJsonl.pairwise);
    expect(fromJsonl.pairwise).toHaveLength(2 * (6 + 2)); // checks and practice left out, repeats kept
    for (const line of jsonl.trim().split('\n')) expect(JSON.parse(line).too_fast).toBe(true);
    // ann's votes exported as clicked: model-a always wins.
    for (const v of fromJsonl.pairwise.filter((v) => v.rater === 'ann'))
      expect((v.winner === 'a' ? v.a : v.b).startsWith('model-a/')).toBe(true);
    // A judge scoring from the runs' results.jsonl matches the exported run/id keys.
    const pred = parsePredictions(
      (await Promise.all(fx.runs.map((r) => readFile(join(r, 'results.jsonl'), 'utf8')))).join(
        '\n',
      ),
    );
    const table = alignJudges([{ name: 'universal', predictions: pred }], fromJsonl, {
      resamples: 20,
    });
    const p = table.judges[0]!.pairwise!;
    expect(p.votes).toBe(16);
    // The fixture scores model-b higher than model-a everywhere: ann (model-a) always disagrees.
    expect(p.agree + p.disagree).toBe(16);
    await studio.close();
  });

  it('refuses to reopen a database with another study', async () => {
    const db = join(fx.root, 'one.sqlite');
    const a = await startStudio({
      runs: fx.runs,
      study: parseStudy({ name: 'one', kind: 'absolute' }),
      db,
      port: 0,
    });
    await a.close();
    await expect(
      startStudio({
        runs: fx.runs,
        study: parseStudy({ name: 'two', kind: 'absolute' }),
        db,
        port: 0,
      }),
    ).rejects.toThrow(/holds another study/);
  });
});
