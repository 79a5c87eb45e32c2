// Blinding and the answer API over real loopback HTTP: what a rater can see or fetch (page,
// JSON, picture addresses and bytes) tells neither the run nor that a pair is a repeat; the
// API takes JSON only, bounds `ms`, refuses screens it has not handed out, and undoes the last
// answer only; a run directory without scores is accepted; the exposure refusal names what
// the studio holds.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuns, type StudioFixture } from '../../test/studio/fixture.ts';
import { parseHuman } from '../eval/stats/align-input.ts';
import sharp from '../render/sharp.ts';
import { STUDIO_PICTURE_PX } from './picture.ts';
import { type RunningStudio, startStudio } from './start.ts';
import { parseStudy } from './study.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read the API's JSON loosely
type Json = any;

let fx: StudioFixture;
beforeAll(async () => {
  fx = await makeRuns();
});
afterAll(async () => {
  await rm(fx.root, { recursive: true, force: true });
});

function client(studio: RunningStudio, name: string) {
  const tok = studio.raterUrls.find((r) => r.name === name)!.url.split('/r/')[1]!;
  const call = (path: string, body?: unknown, type = 'application/json') =>
    fetch(
      `${studio.url}/api/r/${tok}${path}`,
      body === undefined
        ? {}
        : {
            method: 'POST',
            headers: { 'content-type': type },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          },
    );
  return {
    tok,
    call,
    json: async (path: string, body?: unknown) => (await call(path, body)).json() as Promise<Json>,
  };
}

describe('studio blinding', () => {
  it('picture addresses, page and JSON tell neither the run nor a repeat', async () => {
    const study = parseStudy({
      name: 'model-a-vs-model-b',
      kind: 'pairwise',
      seed: 5,
      per_prompt: 2,
      raters: ['ann', 'bob', 'cy'],
      repeat_share: 0.5,
      attention_checks: 1,
      practice: 1,
    });
    const studio = await startStudio({
      runs: fx.runs,
      study,
      db: join(fx.root, 'blind.sqlite'),
      port: 0,
    });
    try {
      const runOf = (k: string | null) => (k === null ? null : studio.store.item(k)!.run);
      let lowerIsA = 0;
      let pairs = 0;
      const seen = new Set<string>();
      for (const name of ['ann', 'bob', 'cy']) {
        const r = client(studio, name);
        const page = await (await fetch(`${studio.url}/r/${r.tok}`)).text();
        expect(page).not.toContain('model-a-vs-model-b');
        expect(page).toContain('<title>Picture study</title>');
        await r.json('/start', {});
        const shownAt = new Map<number, string[]>();
        for (;;) {
          const s = await r.json('/next');
          const text = JSON.stringify(s);
          // No study name, run name, item id or file name in anything the rater receives.
          expect(text).not.toMatch(/model-|p\d#|\.png|-vs-/);
          if (!s.task) break;
          const t = studio.store.tasks(name).find((x) => x.seq === s.task.seq)!;
          const addr = (s.task.images as string[]).map((u) => u.split('/').pop()!);
          for (const a of addr) {
            expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
            // Each showing has its own address: none is ever handed out twice.
            expect(seen.has(a)).toBe(false);
            seen.add(a);
          }
          shownAt.set(t.seq, addr);
          if (!t.practice && t.check === null && runOf(t.items[0]!) !== runOf(t.items[1]!)) {
            pairs++;
            const lower = addr[0]! < addr[1]! ? 0 : 1;
            if (runOf(t.items[lower]!) === 'model-a') lowerIsA++;
          }
          if (t.repeat) {
            const first = studio.store.tasks(name).find((x) => x.unit === t.unit && !x.repeat)!;
            expect(shownAt.get(first.seq)!.some((a) => addr.includes(a))).toBe(false);
          }
          await r.json('/answer', { seq: s.task.seq, answer: { choice: 0 }, ms: 1500 });
        }
      }
      // Today's numbering put model-a's pictures first: the lower address was model-a in
      // every pair. Per-showing HMAC addresses: about half (36+ pairs, p < 1e-4 outside).
      expect(pairs).toBeGreaterThanOrEqual(36);
      expect(lowerIsA / pairs).toBeGreaterThan(0.2);
      expect(lowerIsA / pairs).toBeLessThan(0.8);

      // Pictures are re-encoded to one size, without metadata; the blank check too.
      // Another rater's address is not this rater's picture: the address book is per rater.
      const bob = client(studio, 'bob');
      const annFirst = [...seen][0]!;
      expect((await fetch(`${studio.url}/img/${bob.tok}/${annFirst}`)).status).toBe(404);
      const ann = client(studio, 'ann');
      const metas = [];
      for (const a of [...seen].slice(0, 6)) {
        const res = await fetch(`${studio.url}/img/${ann.tok}/${a}`);
        expect(res.status).toBe(200);
        metas.push(await sharp(Buffer.from(await res.arrayBuffer())).metadata());
      }
      for (const m of metas) {
        expect([m.width, m.height]).toEqual([STUDIO_PICTURE_PX, STUDIO_PICTURE_PX]);
        expect(m.exif ?? m.xmp ?? m.icc ?? null).toBeNull();
      }
      // The old numbered addresses and the named blank are gone.
      expect((await fetch(`${studio.url}/img/${ann.tok}/1`)).status).toBe(404);
      expect((await fetch(`${studio.url}/img/${ann.tok}/blank`)).status).toBe(404);
    } finally {
      await studio.close();
    }
  }, 60_000);
});

describe('the answer API', () => {
  it('takes JSON only, bounds ms, refuses screens not shown, undoes the last answer once', async () => {
    const study = parseStudy({
      name: 'api',
      kind: 'pairwise',
      seed: 2,
      raters: ['ann'],
      repeat_share: 0,
      attention_checks: 0,
      practice: 0,
    });
    const studio = await startStudio({
      runs: fx.runs,
      study,
      db: join(fx.root, 'api.sqlite'),
      port: 0,
    });
    try {
      const r = client(studio, 'ann');
      // Before the instructions are acknowledged nothing is shown, so nothing can be answered.
      const early = await r.call('/answer', { seq: 0, answer: { choice: 0 }, ms: 1500 });
      expect(early.status).toBe(409);
      expect(((await early.json()) as Json).error.code).toBe('not_shown');
      const started = await r.json('/start', {});
      const seq0 = started.task.seq;
      expect(started.undo).toBeNull();
      // A future screen has not been shown: refused, nothing stored.
      const ahead = await r.call('/answer', { seq: seq0 + 1, answer: { choice: 0 }, ms: 1500 });
      expect(ahead.status).toBe(409);
      expect(((await ahead.json()) as Json).error.code).toBe('not_shown');
      // text/plain (what a cross-site form can send) is refused.
      const plain = await r.call(
        '/answer',
        JSON.stringify({ seq: seq0, answer: { choice: 0 } }),
        'text/plain',
      );
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as Json).error.code).toBe('unsupported_media_type');
      // ms is bounded.
      for (const ms of [-1, 86_400_001, 1e12]) {
        const big = await r.call('/answer', { seq: seq0, answer: { choice: 0 }, ms });
        expect(big.status).toBe(400);
        expect(((await big.json()) as Json).error.code).toBe('invalid_request');
      }
      expect(studio.store.tasks('ann').filter((t) => t.answer)).toHaveLength(0);
      // Nothing to undo yet.
      const none = await r.call('/undo', { seq: seq0 });
      expect(((await none.json()) as Json).error.code).toBe('nothing_to_undo');

      const a1 = await r.json('/answer', { seq: seq0, answer: { choice: 0 }, ms: 1500 });
      expect(a1.stored).toBe(true);
      expect(a1.undo).toBe(seq0);
      const a2 = await r.json('/answer', { seq: a1.task.seq, answer: { choice: 1 }, ms: 1500 });
      expect(a2.done).toBe(2);
      // Only the last answer can be taken back.
      const wrong = await r.call('/undo', { seq: seq0 });
      expect(wrong.status).toBe(409);
      expect(((await wrong.json()) as Json).error.code).toBe('not_last');
      const u = await r.json('/undo', { seq: a1.task.seq });
      expect(u.undone).toBe(a1.task.seq);
      expect(u.done).toBe(1);
      expect(u.task.seq).toBe(a1.task.seq);
      // One step only: the undone screen must be answered before another undo.
      expect(u.undo).toBeNull();
      expect(((await (await r.call('/undo', { seq: seq0 })).json()) as Json).error.code).toBe(
        'nothing_to_undo',
      );
      const a3 = await r.json('/answer', { seq: u.task.seq, answer: { choice: 'tie' }, ms: 2000 });
      expect(a3.done).toBe(2);
      const rows = parseHuman(
        await (
          await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/export.jsonl`)
        ).text(),
      ).pairwise;
      expect(rows.map((v) => v.winner)).toEqual(['a', 'tie']);
      const stats = (await (
        await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/stats`)
      ).json()) as Json;
      expect(stats.stats.raters[0].undone).toBe(1);
      // The page claimed 1.5–2 s, but the server handed each screen out milliseconds before
      // the answer came: its own clock flags both answers.
      expect(stats.stats.raters[0].too_fast).toBe(2);
      expect(stats.stats.raters[0].median_ms).toBe(1750);
    } finally {
      await studio.close();
    }
  }, 60_000);

  it('per-run win rates with bootstrap intervals, and attention checks per rater', async () => {
    const study = parseStudy({
      name: 'wins',
      kind: 'pairwise',
      seed: 3,
      per_prompt: 2,
      raters: ['ann', 'bob'],
      repeat_share: 0,
      attention_checks: 2,
      practice: 0,
    });
    const studio = await startStudio({
      runs: fx.runs,
      study,
      db: join(fx.root, 'wins.sqlite'),
      port: 0,
    });
    try {
      for (const name of ['ann', 'bob']) {
        const r = client(studio, name);
        let s = await r.json('/start', {});
        while (s.task) {
          const t = studio.store.tasks(name).find((x) => x.seq === s.task.seq)!;
          // ann picks model-b, or the left picture in a check (failing the ones where the
          // odd picture is on the left); bob always ties.
          const bIdx = t.items.findIndex(
            (k) => k !== null && studio.store.item(k)!.run === 'model-b',
          );
          const choice = name === 'bob' ? 'tie' : t.check !== null ? 0 : bIdx === -1 ? 0 : bIdx;
          s = await r.json('/answer', { seq: s.task.seq, answer: { choice }, ms: 3000 });
        }
      }
      const stats = (
        (await (
          await fetch(`${studio.url}/api/admin/${studio.store.adminToken}/stats`)
        ).json()) as Json
      ).stats;
      expect(stats.runs.measure).toBe('win_rate');
      const byRun = Object.fromEntries(stats.runs.runs.map((r: Json) => [r.run, r]));
      // 12 pairs × 2 raters: ann's 12 give model-b the win, bob's 12 are ties.
      expect(byRun['model-b']).toMatchObject({
        n: 24,
        wins: 12,
        losses: 0,
        ties: 12,
        estimate: 0.75,
      });
      expect(byRun['model-a']).toMatchObject({
        n: 24,
        wins: 0,
        losses: 12,
        ties: 12,
        estimate: 0.25,
      });
      for (const r of Object.values(byRun) as Json[]) {
        expect(r.low).toBeLessThanOrEqual(r.estimate);
        expect(r.high).toBeGreaterThanOrEqual(r.estimate);
      }
      // Every rater's pair votes agree within a prompt, so resampling prompts keeps 0.75.
      expect(byRun['model-b'].low).toBe(0.75);
      const ann = stats.raters.find((r: Json) => r.name === 'ann');
      const checks = studio.store.tasks('ann').filter((t) => t.check !== null);
      expect(ann.check_results.map((c: Json) => [c.seq, c.kind])).toEqual(
        checks.map((t) => [t.seq, t.check]),
      );
      for (const [i, c] of ann.check_results.entries()) {
        const t = checks[i]!;
        const left = t.items[0]!;
        const ok = left !== null && studio.store.item(left)!.prompt_id === t.prompt_id;
        expect(c.passed).toBe(ok);
      }
      expect(ann.checks_passed).toBe(ann.check_results.filter((c: Json) => c.passed).length);
      // bob ties on checks: every check failed.
      expect(stats.raters.find((r: Json) => r.name === 'bob').checks_passed).toBe(0);
    } finally {
      await studio.close();
    }
  }, 60_000);

  it('accepts a run directory whose results.jsonl has only id, prompt_id, prompt, run, image', async () => {
    const runs = [];
    for (const run of fx.runs) {
      const dir = `${run}-plain`;
      await mkdir(join(dir, 'images'), { recursive: true });
      const lines = (await readFile(join(run, 'results.jsonl'), 'utf8')).trim().split('\n');
      const plain = lines.map((l) => {
        const { id, prompt_id, prompt, run: name, image } = JSON.parse(l);
        return JSON.stringify({ id, prompt_id, prompt, run: name, image: join(run, image) });
      });
      // One unreadable line and one missing picture: left out, and said.
      plain.push('{"id": ', JSON.stringify({ id: 'gone', prompt_id: 'p0', image: 'nope.png' }));
      await writeFile(join(dir, 'results.jsonl'), `${plain.join('\n')}\n`);
      runs.push(dir);
    }
    const warnings: string[] = [];
    const studio = await startStudio({
      onWarning: (m) => warnings.push(m),
      runs,
      study: parseStudy({ name: 'plain', kind: 'absolute', practice: 0 }),
      db: join(fx.root, 'plain.sqlite'),
      port: 0,
    });
    try {
      expect(studio.store.tasks('rater1').length).toBeGreaterThan(0);
      expect(warnings).toHaveLength(4);
      expect(warnings[0]).toMatch(
        /1 line\(s\) of .*results\.jsonl left out \(first: line 13, bad_json/,
      );
      expect(warnings[1]).toMatch(/1 picture\(s\) of .* not found, left out \(first: nope\.png\)/);
    } finally {
      await studio.close();
    }
  });

  it('refuses a non-loopback address without a token, naming the raters’ answers, not a judge', async () => {
    const err = await startStudio({
      runs: fx.runs,
      study: parseStudy({ name: 'open' }),
      db: join(fx.root, 'open.sqlite'),
      host: '0.0.0.0',
      port: 0,
    }).catch((e: Error & { code?: string }) => e);
    expect((err as { code?: string }).code).toBe('exposed_without_token');
    expect((err as Error).message).toMatch(/raters’ answers/);
    expect((err as Error).message).not.toMatch(/judge/);
  });
});
