// The studio's database: one SQLite file (WAL, synchronous=FULL) holding the study, its
// pictures, each rater's fixed task list and every answer. An answer is committed before the
// server replies, so a crash or a reload never loses one; the first answer to a task is the
// one kept, so a double click or a retried request cannot change it. Schema: docs/human-studies.md.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StudioError } from './errors.ts';
import type { CheckKind, Item, Plan, Study, Task } from './study.ts';

export const STUDIO_SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
  n INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, run TEXT NOT NULL, id TEXT NOT NULL,
  prompt_id TEXT NOT NULL, prompt TEXT NOT NULL, image TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS raters (name TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS tasks (
  rater TEXT NOT NULL REFERENCES raters(name), seq INTEGER NOT NULL, unit INTEGER,
  items TEXT NOT NULL, prompt_id TEXT NOT NULL, prompt TEXT NOT NULL,
  is_repeat INTEGER NOT NULL, check_kind TEXT, PRIMARY KEY (rater, seq));
CREATE TABLE IF NOT EXISTS answers (
  rater TEXT NOT NULL, seq INTEGER NOT NULL, answer TEXT NOT NULL, ms INTEGER,
  answered_at TEXT NOT NULL, PRIMARY KEY (rater, seq),
  FOREIGN KEY (rater, seq) REFERENCES tasks(rater, seq));
`;

/** A rater's answer, in display positions (0 = left / first shown). */
export type Answer =
  | { choice: 0 | 1 | 'tie' }
  | { score: number; criteria?: Record<string, number> }
  | { order: number[] };

export interface StoredTask extends Task {
  answer: Answer | null;
  ms: number | null;
  answered_at: string | null;
}

export interface StudioStore {
  readonly path: string;
  readonly study: Study;
  readonly adminToken: string;
  raters(): { name: string; token: string }[];
  raterByToken(token: string): string | null;
  item(key: string): (Item & { n: number }) | null;
  itemByNumber(n: number): Item | null;
  tasks(rater: string): StoredTask[];
  /** The first unanswered task and the progress; task null when the rater is done. */
  next(rater: string): { task: StoredTask | null; done: number; total: number };
  /** Stores an answer; false when that task already had one (the first answer stays). */
  answer(rater: string, seq: number, answer: Answer, ms: number | null): boolean;
  close(): void;
}

const token = () => randomBytes(18).toString('base64url');

interface TaskRow {
  rater: string;
  seq: number;
  unit: number | null;
  items: string;
  prompt_id: string;
  prompt: string;
  is_repeat: number;
  check_kind: string | null;
  answer: string | null;
  ms: number | null;
  answered_at: string | null;
}

function toTask(r: TaskRow): StoredTask {
  return {
    seq: r.seq,
    unit: r.unit,
    items: JSON.parse(r.items) as (string | null)[],
    prompt_id: r.prompt_id,
    prompt: r.prompt,
    repeat: r.is_repeat === 1,
    check: r.check_kind as CheckKind | null,
    answer: r.answer === null ? null : (JSON.parse(r.answer) as Answer),
    ms: r.ms,
    answered_at: r.answered_at,
  };
}

/**
 * Opens (or creates) the study database. A new file gets the study, pictures, raters with
 * fresh tokens and the plan; an existing one must hold the same study (same file content),
 * and is resumed as it was, answers included.
 */
export function openStudioStore(
  path: string,
  init: { study: Study; items: readonly Item[]; plan: Plan; adminToken?: string },
): StudioStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const meta = (k: string) => getMeta.get(k)?.value;
  const studyJson = JSON.stringify(init.study);
  const stored = meta('study');
  if (stored === undefined) {
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const addItem = db.prepare(
      'INSERT INTO items (key, run, id, prompt_id, prompt, image) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const addRater = db.prepare('INSERT INTO raters (name, token) VALUES (?, ?)');
    const addTask = db.prepare(
      'INSERT INTO tasks (rater, seq, unit, items, prompt_id, prompt, is_repeat, check_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      setMeta.run('schema_version', String(STUDIO_SCHEMA_VERSION));
      setMeta.run('study', studyJson);
      setMeta.run('created_at', new Date().toISOString());
      setMeta.run('admin_token', init.adminToken ?? token());
      const used = new Set(
        [...init.plan.tasks.values()].flatMap((ts) => ts.flatMap((t) => t.items)),
      );
      for (const it of init.items)
        if (used.has(it.key)) addItem.run(it.key, it.run, it.id, it.prompt_id, it.prompt, it.image);
      for (const [rater, tasks] of init.plan.tasks) {
        addRater.run(rater, token());
        for (const t of tasks)
          addTask.run(
            rater,
            t.seq,
            t.unit,
            JSON.stringify(t.items),
            t.prompt_id,
            t.prompt,
            t.repeat ? 1 : 0,
            t.check,
          );
      }
    })();
  } else if (stored !== studyJson) {
    db.close();
    throw new StudioError(
      'study_mismatch',
      `${path} holds another study (${JSON.parse(stored).name}); give a new --db or the same study file`,
    );
  }
  const adminToken = init.adminToken ?? meta('admin_token')!;
  const taskRows = db.prepare<[string], TaskRow>(
    `SELECT t.*, a.answer, a.ms, a.answered_at FROM tasks t
     LEFT JOIN answers a ON a.rater = t.rater AND a.seq = t.seq WHERE t.rater = ? ORDER BY t.seq`,
  );
  const insertAnswer = db.prepare(
    'INSERT OR IGNORE INTO answers (rater, seq, answer, ms, answered_at) VALUES (?, ?, ?, ?, ?)',
  );
  const itemRow = db.prepare<[string], Item & { n: number }>('SELECT * FROM items WHERE key = ?');
  const itemN = db.prepare<[number], Item>('SELECT * FROM items WHERE n = ?');
  const raterRows = db.prepare<[], { name: string; token: string }>(
    'SELECT name, token FROM raters ORDER BY rowid',
  );
  const raterTok = db.prepare<[string], { name: string }>(
    'SELECT name FROM raters WHERE token = ?',
  );
  return {
    path,
    study: init.study,
    adminToken,
    raters: () => raterRows.all(),
    raterByToken: (t) => raterTok.get(t)?.name ?? null,
    item: (key) => itemRow.get(key) ?? null,
    itemByNumber: (n) => itemN.get(n) ?? null,
    tasks: (rater) => taskRows.all(rater).map(toTask),
    next(rater) {
      const all = taskRows.all(rater).map(toTask);
      const done = all.filter((t) => t.answer !== null).length;
      return { task: all.find((t) => t.answer === null) ?? null, done, total: all.length };
    },
    answer(rater, seq, answer, ms) {
      const r = insertAnswer.run(rater, seq, JSON.stringify(answer), ms, new Date().toISOString());
      return r.changes === 1;
    },
    close: () => db.close(),
  };
}
