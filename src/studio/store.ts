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

export const STUDIO_SCHEMA_VERSION = 2;

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
CREATE TABLE IF NOT EXISTS shown (
  rater TEXT NOT NULL, seq INTEGER NOT NULL, shown_ms INTEGER NOT NULL, PRIMARY KEY (rater, seq));
CREATE TABLE IF NOT EXISTS undone (
  rater TEXT NOT NULL, seq INTEGER NOT NULL, answer TEXT NOT NULL, ms INTEGER,
  answered_at TEXT NOT NULL, undone_at TEXT NOT NULL);
`;

/** Columns schema version 2 added to version-1 tables; added in place when a file lacks them. */
const ADDED_COLUMNS: [table: string, column: string, decl: string][] = [
  ['tasks', 'is_practice', 'INTEGER NOT NULL DEFAULT 0'],
  ['raters', 'started_at', 'TEXT'],
  ['answers', 'server_ms', 'INTEGER'],
];

/**
 * A rater's answer, in display positions (0 = left / first shown). A criterion the rater did
 * not touch is null: the page showed "–", so no number was given.
 */
export type Answer =
  | { choice: 0 | 1 | 'tie' }
  | { score: number; criteria?: Record<string, number | null> }
  | { order: number[] };

/** A task with its answer (null while unanswered) and how long it took. */
export interface StoredTask extends Task {
  answer: Answer | null;
  /** Time on screen as the page measured it (from the pictures being shown). */
  ms: number | null;
  /** Time from the server handing out the screen to the answer arriving. */
  server_ms: number | null;
  answered_at: string | null;
}

/** What undoing the last answer did: `undone`, or why not. */
export type UndoResult = 'undone' | 'nothing_to_undo' | 'not_last';

/** Where a rater is: the screen to show, real screens done of total, practice likewise. */
export interface Progress {
  task: StoredTask | null;
  done: number;
  total: number;
  practice_done: number;
  practice_total: number;
}

export interface StudioStore {
  readonly path: string;
  readonly study: Study;
  readonly adminToken: string;
  /** The secret behind the raters' picture addresses (src/studio/addresses.ts). */
  readonly pictureSecret: string;
  raters(): { name: string; token: string }[];
  raterByToken(token: string): string | null;
  item(key: string): (Item & { n: number }) | null;
  itemByNumber(n: number): Item | null;
  tasks(rater: string): StoredTask[];
  /** The first unanswered task and the progress; task null when the rater is done. */
  next(rater: string): Progress;
  /** True once the rater has read the instructions (or answered anything). */
  started(rater: string): boolean;
  start(rater: string): void;
  /** Records that a screen was handed to the rater (the first time counts); `now` in ms. */
  markShown(rater: string, seq: number, now: number): void;
  /** When the screen was handed out (ms since epoch), or null if it never was. */
  shownAt(rater: string, seq: number): number | null;
  /**
   * Stores an answer; false when that task already had one (the first answer stays, except
   * through `undo`).
   */
  answer(
    rater: string,
    seq: number,
    answer: Answer,
    ms: number | null,
    serverMs?: number | null,
  ): boolean;
  /** The seq whose answer `undo` would take back, or null. */
  undoable(rater: string): number | null;
  /**
   * Takes back the rater's last answer (`seq` must name it) and shows that screen again. One
   * step only: after an undo, the screen must be answered again before another undo.
   */
  undo(rater: string, seq: number): UndoResult;
  /** Answers taken back by each rater. */
  undoCount(rater: string): number;
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
  is_practice: number;
  answer: string | null;
  ms: number | null;
  server_ms: number | null;
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
    practice: r.is_practice === 1,
    answer: r.answer === null ? null : (JSON.parse(r.answer) as Answer),
    ms: r.ms,
    server_ms: r.server_ms,
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
  for (const [table, column, decl] of ADDED_COLUMNS) {
    const cols = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!cols.some((c) => c.name === column))
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${decl}`);
  }
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
      'INSERT INTO tasks (rater, seq, unit, items, prompt_id, prompt, is_repeat, check_kind, is_practice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
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
            t.practice ? 1 : 0,
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
  // Older files have no picture secret yet: one is made now and kept, like the tokens.
  if (meta('picture_secret') === undefined) {
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('picture_secret', token());
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(
      String(STUDIO_SCHEMA_VERSION),
    );
  }
  const pictureSecret = meta('picture_secret')!;
  const taskRows = db.prepare<[string], TaskRow>(
    `SELECT t.*, a.answer, a.ms, a.server_ms, a.answered_at FROM tasks t
     LEFT JOIN answers a ON a.rater = t.rater AND a.seq = t.seq WHERE t.rater = ? ORDER BY t.seq`,
  );
  const insertAnswer = db.prepare(
    'INSERT OR IGNORE INTO answers (rater, seq, answer, ms, server_ms, answered_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertShown = db.prepare(
    'INSERT OR IGNORE INTO shown (rater, seq, shown_ms) VALUES (?, ?, ?)',
  );
  const shownRow = db.prepare<[string, number], { shown_ms: number }>(
    'SELECT shown_ms FROM shown WHERE rater = ? AND seq = ?',
  );
  const startedRow = db.prepare<[string], { started_at: string | null; answered: number }>(
    'SELECT started_at, (SELECT count(*) FROM answers a WHERE a.rater = r.name) AS answered FROM raters r WHERE name = ?',
  );
  const setStarted = db.prepare(
    'UPDATE raters SET started_at = ? WHERE name = ? AND started_at IS NULL',
  );
  const lastAnswer = db.prepare<
    [string],
    { seq: number; answer: string; ms: number | null; answered_at: string }
  >('SELECT seq, answer, ms, answered_at FROM answers WHERE rater = ? ORDER BY seq DESC LIMIT 1');
  const lastUndone = db.prepare<[string], { seq: number | null }>(
    'SELECT max(seq) AS seq FROM undone WHERE rater = ?',
  );
  const undoneCount = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM undone WHERE rater = ?',
  );
  const insertUndone = db.prepare(
    'INSERT INTO undone (rater, seq, answer, ms, answered_at, undone_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const deleteAnswer = db.prepare('DELETE FROM answers WHERE rater = ? AND seq = ?');
  const deleteShown = db.prepare('DELETE FROM shown WHERE rater = ? AND seq = ?');
  const undoable = (rater: string): number | null => {
    const last = lastAnswer.get(rater);
    if (!last) return null;
    // One step back only: an undone screen must be answered again before the next undo.
    const undone = lastUndone.get(rater)?.seq ?? null;
    return undone !== null && undone > last.seq ? null : last.seq;
  };
  const undo = db.transaction((rater: string, seq: number): UndoResult => {
    const can = undoable(rater);
    if (can === null) return 'nothing_to_undo';
    if (can !== seq) return 'not_last';
    const last = lastAnswer.get(rater)!;
    insertUndone.run(rater, seq, last.answer, last.ms, last.answered_at, new Date().toISOString());
    deleteAnswer.run(rater, seq);
    // Shown again from now: its time on screen restarts.
    deleteShown.run(rater, seq);
    return 'undone';
  });
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
    pictureSecret,
    raters: () => raterRows.all(),
    raterByToken: (t) => raterTok.get(t)?.name ?? null,
    item: (key) => itemRow.get(key) ?? null,
    itemByNumber: (n) => itemN.get(n) ?? null,
    tasks: (rater) => taskRows.all(rater).map(toTask),
    next(rater) {
      const all = taskRows.all(rater).map(toTask);
      const real = all.filter((t) => !t.practice);
      const practice = all.filter((t) => t.practice);
      return {
        task: all.find((t) => t.answer === null) ?? null,
        done: real.filter((t) => t.answer !== null).length,
        total: real.length,
        practice_done: practice.filter((t) => t.answer !== null).length,
        practice_total: practice.length,
      };
    },
    started(rater) {
      const r = startedRow.get(rater);
      return r !== undefined && (r.started_at !== null || r.answered > 0);
    },
    start(rater) {
      setStarted.run(new Date().toISOString(), rater);
    },
    markShown(rater, seq, now) {
      insertShown.run(rater, seq, Math.round(now));
    },
    shownAt: (rater, seq) => shownRow.get(rater, seq)?.shown_ms ?? null,
    answer(rater, seq, answer, ms, serverMs = null) {
      const r = insertAnswer.run(
        rater,
        seq,
        JSON.stringify(answer),
        ms,
        serverMs,
        new Date().toISOString(),
      );
      return r.changes === 1;
    },
    undoable,
    undo: (rater, seq) => undo(rater, seq),
    undoCount: (rater) => undoneCount.get(rater)?.n ?? 0,
    close: () => db.close(),
  };
}
