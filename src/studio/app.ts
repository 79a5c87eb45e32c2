// The studio's HTTP app (hono, like `rubrica serve`): rater pages and their answer API under
// each rater's own token, the admin view and exports under the admin token, and the pictures
// behind opaque numbers so no file name or run (model) name reaches a rater.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { errorBody, issuesMessage } from '../core/error-body.ts';
import sharp from '../render/sharp.ts';
import { renderAdminPage } from './admin-page.ts';
import { renderRaterPage } from './rater-page.ts';
import { exportRows, studyStats, toCsv, toJsonl } from './results.ts';
import type { Answer, StoredTask, StudioStore } from './store.ts';
import { DEFAULT_QUESTION } from './study.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** What a rater's page is told about a task: the prompt and picture URLs, nothing else. */
function publicTask(store: StudioStore, token: string, t: StoredTask) {
  return {
    seq: t.seq,
    prompt: t.prompt,
    images: t.items.map((k) => {
      if (k === null) return `/img/${token}/blank`;
      return `/img/${token}/${store.item(k)!.n}`;
    }),
  };
}

function answerSchema(store: StudioStore) {
  const s = store.study;
  const score = z.number().int().min(0).max(100);
  if (s.kind === 'pairwise')
    return z.strictObject({
      choice: s.allow_ties
        ? z.union([z.literal(0), z.literal(1), z.literal('tie')])
        : z.union([z.literal(0), z.literal(1)]),
    });
  if (s.kind === 'absolute') {
    const ids = s.criteria.map((c) => c.id);
    const criteria = z.strictObject(Object.fromEntries(ids.map((id) => [id, score])));
    return ids.length > 0 ? z.strictObject({ score, criteria }) : z.strictObject({ score });
  }
  return z.strictObject({
    order: z
      .array(z.number().int().min(0).max(2))
      .length(3)
      .refine((o) => new Set(o).size === 3, 'order must rank each picture once'),
  });
}

let blankPng: Promise<Buffer> | undefined;
/** The attention check's blank picture: plain white, the size of a rendered drawing. */
const blank = () =>
  (blankPng ??= sharp({ create: { width: 512, height: 512, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer());

export function createStudioApp(store: StudioStore): Hono {
  const app = new Hono();
  const admin = digest(store.adminToken);
  const isAdmin = (t: string) => timingSafeEqual(digest(t), admin);
  const study = store.study;
  const publicStudy = {
    name: study.name,
    kind: study.kind,
    question: study.question ?? DEFAULT_QUESTION[study.kind],
    allow_ties: study.allow_ties,
    anchors: study.anchors,
    criteria: study.criteria,
  };
  const schema = answerSchema(store);
  const refuse = (c: { json: (b: unknown, s: 401) => Response }) =>
    c.json(errorBody('unauthorized', 'unknown link: ask the study admin for yours'), 401);

  app.onError((err, c) => c.json(errorBody('internal', err.message), 500));
  app.notFound((c) =>
    c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404),
  );
  app.get('/healthz', (c) => c.json({ ok: true }));

  const state = (token: string, rater: string) => {
    const n = store.next(rater);
    return {
      study: publicStudy,
      done: n.done,
      total: n.total,
      task: n.task ? publicTask(store, token, n.task) : null,
    };
  };

  app.get('/r/:token', (c) => {
    const token = c.req.param('token');
    if (store.raterByToken(token) === null) return refuse(c);
    c.header('Cache-Control', 'no-store');
    return c.html(renderRaterPage(study.name));
  });
  app.get('/api/r/:token/next', (c) => {
    const token = c.req.param('token');
    const rater = store.raterByToken(token);
    if (rater === null) return refuse(c);
    return c.json(state(token, rater));
  });
  app.post(
    '/api/r/:token/answer',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: (c) => c.json(errorBody('body_too_large', 'answer over 16 KB'), 413),
    }),
    async (c) => {
      const token = c.req.param('token');
      const rater = store.raterByToken(token);
      if (rater === null) return refuse(c);
      const body = z
        .strictObject({
          seq: z.number().int().min(0),
          answer: z.unknown(),
          ms: z.number().int().min(0).nullable().optional(),
        })
        .safeParse(await c.req.json().catch(() => null));
      if (!body.success)
        return c.json(errorBody('invalid_request', issuesMessage(body.error.issues)), 400);
      const answer = schema.safeParse(body.data.answer);
      if (!answer.success)
        return c.json(errorBody('bad_answer', issuesMessage(answer.error.issues)), 400);
      const task = store.tasks(rater).find((t) => t.seq === body.data.seq);
      if (!task)
        return c.json(errorBody('not_found', `no task ${body.data.seq} for this rater`), 404);
      const stored = store.answer(rater, task.seq, answer.data as Answer, body.data.ms ?? null);
      return c.json({ stored, ...state(token, rater) });
    },
  );
  app.get('/img/:token/:n', async (c) => {
    const token = c.req.param('token');
    if (store.raterByToken(token) === null && !isAdmin(token)) return refuse(c);
    const n = c.req.param('n');
    c.header('Content-Type', 'image/png');
    c.header('Cache-Control', 'private, max-age=3600');
    if (n === 'blank') return c.body(new Uint8Array(await blank()));
    const item = /^\d+$/.test(n) ? store.itemByNumber(Number(n)) : null;
    if (!item) return c.json(errorBody('not_found', 'no such picture'), 404);
    return c.body(new Uint8Array(await readFile(item.image)));
  });

  app.get('/admin/:token', (c) => {
    if (!isAdmin(c.req.param('token'))) return refuse(c);
    c.header('Cache-Control', 'no-store');
    return c.html(renderAdminPage(study.name));
  });
  app.get('/api/admin/:token/stats', (c) => {
    if (!isAdmin(c.req.param('token'))) return refuse(c);
    return c.json({
      study: publicStudy,
      stats: studyStats(store),
      raters: store.raters().map((r) => ({ name: r.name, link: `/r/${r.token}` })),
    });
  });
  app.get('/api/admin/:token/export.:format', (c) => {
    if (!isAdmin(c.req.param('token'))) return refuse(c);
    const format = c.req.param('format');
    const rows = exportRows(store);
    const name = study.name.replace(/[^A-Za-z0-9._-]+/g, '_');
    if (format === 'jsonl') {
      c.header('Content-Disposition', `attachment; filename="${name}.jsonl"`);
      return c.body(toJsonl(rows), 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
    }
    if (format === 'csv') {
      c.header('Content-Disposition', `attachment; filename="${name}.csv"`);
      return c.body(toCsv(rows), 200, { 'Content-Type': 'text/csv; charset=utf-8' });
    }
    return c.json(errorBody('not_found', 'export as .jsonl or .csv'), 404);
  });
  return app;
}
