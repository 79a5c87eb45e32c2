// The studio's HTTP app (hono, like `rubrica serve`): rater pages and their answer API under
// each rater's own token, the admin view and exports under the admin token. Raters are blind:
// pictures are served at per-showing HMAC addresses as normalised PNGs, the page carries a
// neutral title, and no run name, item id, file name or study name reaches them.
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { errorBody, issuesMessage } from '../core/error-body.ts';
import { AddressBook, pictureAddress } from './addresses.ts';
import { renderAdminPage } from './admin-page.ts';
import { servedPicture } from './picture.ts';
import { renderRaterPage } from './rater-page.ts';
import { exportRows, studyStats, toCsv, toJsonl } from './results.ts';
import type { Answer, StoredTask, StudioStore } from './store.ts';
import {
  DEFAULT_INSTRUCTIONS,
  DEFAULT_PRACTICE,
  DEFAULT_QUESTION,
  DEFAULT_TOO_FAST_MS,
  NEUTRAL_TITLE,
} from './study.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The longest time on screen an answer may report (one day). The page clamps to it, so only
 * a forged or broken client sends more; the server's own measure is kept beside it anyway.
 */
export const MAX_ANSWER_MS = 86_400_000;

/**
 * The page ignores answers (keys and clicks) given within this time of a screen's pictures
 * appearing: a held key's auto-repeat or a double click lands there, a look never does.
 */
export const MIN_LOOK_MS = 400;

/** What a rater's page is told about a task: the prompt and picture URLs, nothing else. */
function publicTask(store: StudioStore, rater: string, token: string, t: StoredTask) {
  return {
    seq: t.seq,
    prompt: t.prompt,
    practice: t.practice,
    images: t.items.map(
      (_, pos) => `/img/${token}/${pictureAddress(store.pictureSecret, rater, t.seq, pos)}`,
    ),
  };
}

/** POSTs must say they are JSON: a form or text/plain post from another site is refused. */
function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
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
    // null: the rater left that criterion untouched (the page showed "–").
    const criteria = z.strictObject(Object.fromEntries(ids.map((id) => [id, score.nullable()])));
    return ids.length > 0 ? z.strictObject({ score, criteria }) : z.strictObject({ score });
  }
  return z.strictObject({
    order: z
      .array(z.number().int().min(0).max(2))
      .length(3)
      .refine((o) => new Set(o).size === 3, 'order must rank each picture once'),
  });
}

/** Builds the studio's hono app over an opened study database. */
export function createStudioApp(store: StudioStore, now: () => number = Date.now): Hono {
  const app = new Hono();
  const admin = digest(store.adminToken);
  const isAdmin = (t: string) => timingSafeEqual(digest(t), admin);
  const study = store.study;
  const title = study.title ?? NEUTRAL_TITLE;
  // What raters are told about the study: no name (it often names the conditions).
  const publicStudy = {
    title,
    kind: study.kind,
    question: study.question ?? DEFAULT_QUESTION[study.kind],
    instructions: study.instructions ?? DEFAULT_INSTRUCTIONS[study.kind],
    allow_ties: study.allow_ties,
    anchors: study.anchors,
    criteria: study.criteria,
    min_look_ms: MIN_LOOK_MS,
    max_ms: MAX_ANSWER_MS,
  };
  const schema = answerSchema(store);
  const book = new AddressBook(store.pictureSecret);
  const refuse = (c: { json: (b: unknown, s: 401) => Response }) =>
    c.json(errorBody('unauthorized', 'unknown link: ask the study admin for yours'), 401);
  const limit = bodyLimit({
    maxSize: 16 * 1024,
    onError: (c) => c.json(errorBody('body_too_large', 'request over 16 KB'), 413),
  });

  app.onError((err, c) => c.json(errorBody('internal', err.message), 500));
  app.notFound((c) =>
    c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404),
  );
  app.get('/healthz', (c) => c.json({ ok: true }));

  /** The rater's state; the screen it hands out counts as shown from now on. */
  const state = (token: string, rater: string) => {
    if (!store.started(rater)) {
      const n = store.next(rater);
      return { study: publicStudy, instructions: true, ...counts(n), undo: null, task: null };
    }
    const n = store.next(rater);
    if (n.task) store.markShown(rater, n.task.seq, now());
    return {
      study: publicStudy,
      instructions: false,
      ...counts(n),
      // The seq whose answer can be taken back (the page names it when it asks), or null.
      undo: store.undoable(rater),
      task: n.task ? publicTask(store, rater, token, n.task) : null,
    };
  };
  const counts = (n: ReturnType<StudioStore['next']>) => ({
    done: n.done,
    total: n.total,
    practice_done: n.practice_done,
    practice_total: n.practice_total,
  });

  /** Token, JSON content type and body checks shared by the rater's POSTs. */
  const post = async <T extends z.ZodType>(
    c: Context,
    body: T,
  ): Promise<{ rater: string; token: string; data: z.infer<T> } | Response> => {
    const token = c.req.param('token') ?? '';
    const rater = store.raterByToken(token);
    if (rater === null) return refuse(c);
    if (!isJson(c.req.header('content-type')))
      return c.json(
        errorBody('unsupported_media_type', 'send the body as Content-Type: application/json'),
        415,
      );
    const parsed = body.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success)
      return c.json(errorBody('invalid_request', issuesMessage(parsed.error.issues)), 400);
    return { rater, token, data: parsed.data };
  };

  app.get('/r/:token', (c) => {
    const token = c.req.param('token');
    if (store.raterByToken(token) === null) return refuse(c);
    c.header('Cache-Control', 'no-store');
    return c.html(renderRaterPage(title));
  });
  app.get('/api/r/:token/next', (c) => {
    const token = c.req.param('token');
    const rater = store.raterByToken(token);
    if (rater === null) return refuse(c);
    c.header('Cache-Control', 'no-store');
    return c.json(state(token, rater));
  });
  app.post('/api/r/:token/start', limit, async (c) => {
    const p = await post(c, z.strictObject({}));
    if (p instanceof Response) return p;
    store.start(p.rater);
    return c.json(state(p.token, p.rater));
  });
  app.post('/api/r/:token/answer', limit, async (c) => {
    const p = await post(
      c,
      z.strictObject({
        seq: z.number().int().min(0),
        answer: z.unknown(),
        ms: z.number().int().min(0).max(MAX_ANSWER_MS).nullable().optional(),
      }),
    );
    if (p instanceof Response) return p;
    const { rater, token, data } = p;
    const answer = schema.safeParse(data.answer);
    if (!answer.success)
      return c.json(errorBody('bad_answer', issuesMessage(answer.error.issues)), 400);
    const task = store.tasks(rater).find((t) => t.seq === data.seq);
    if (!task) return c.json(errorBody('not_found', `no task ${data.seq} for this rater`), 404);
    if (task.answer !== null) return c.json({ stored: false, ...state(token, rater) });
    // Only the screen the rater is on can be answered: it must have been handed out.
    const shown = store.shownAt(rater, task.seq);
    if (shown === null)
      return c.json(
        errorBody('not_shown', `task ${data.seq} has not been shown to this rater yet`),
        409,
      );
    const serverMs = Math.max(0, Math.round(now() - shown));
    const stored = store.answer(rater, task.seq, answer.data as Answer, data.ms ?? null, serverMs);
    return c.json({ stored, ...state(token, rater) });
  });
  app.post('/api/r/:token/undo', limit, async (c) => {
    const p = await post(c, z.strictObject({ seq: z.number().int().min(0) }));
    if (p instanceof Response) return p;
    const r = store.undo(p.rater, p.data.seq);
    if (r === 'nothing_to_undo')
      return c.json(errorBody('nothing_to_undo', 'no answer can be taken back now'), 409);
    if (r === 'not_last')
      return c.json(errorBody('not_last', `task ${p.data.seq} is not the last answer`), 409);
    return c.json({ undone: p.data.seq, ...state(p.token, p.rater) });
  });
  app.get('/img/:token/:address', async (c) => {
    const token = c.req.param('token');
    const rater = store.raterByToken(token);
    if (rater === null) return refuse(c);
    const showing = book.lookup(rater, c.req.param('address'), () => store.tasks(rater));
    if (!showing) return c.json(errorBody('not_found', 'no such picture'), 404);
    const key = store.tasks(rater).find((t) => t.seq === showing.seq)!.items[showing.pos]!;
    const file = key === null ? null : store.item(key)!.image;
    const png = await servedPicture(file);
    // The run's file is not a picture rubrica may read (a FIFO, a device, changed while read).
    if (!Buffer.isBuffer(png)) {
      return c.json(errorBody('picture_unreadable', `the picture ${png.message}`), 422);
    }
    c.header('Content-Type', 'image/png');
    c.header('Cache-Control', 'private, max-age=3600');
    return c.body(new Uint8Array(png));
  });

  app.get('/admin/:token', (c) => {
    if (!isAdmin(c.req.param('token'))) return refuse(c);
    c.header('Cache-Control', 'no-store');
    return c.html(renderAdminPage(study.name));
  });
  app.get('/api/admin/:token/stats', (c) => {
    if (!isAdmin(c.req.param('token'))) return refuse(c);
    return c.json({
      study: { ...publicStudy, name: study.name },
      practice: study.practice ?? DEFAULT_PRACTICE,
      too_fast_ms: study.too_fast_ms ?? DEFAULT_TOO_FAST_MS,
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
