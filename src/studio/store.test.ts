// A study database written by schema version 1 (before practice screens, picture secrets,
// showings and undo) opens under version 2 with its plan and answers kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStudioStore, STUDIO_SCHEMA_VERSION } from './store.ts';
import { type Item, parseStudy } from './study.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-studio-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (n INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, run TEXT NOT NULL, id TEXT NOT NULL,
  prompt_id TEXT NOT NULL, prompt TEXT NOT NULL, image TEXT NOT NULL);
CREATE TABLE raters (name TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE);
CREATE TABLE tasks (rater TEXT NOT NULL REFERENCES raters(name), seq INTEGER NOT NULL, unit INTEGER,
  items TEXT NOT NULL, prompt_id TEXT NOT NULL, prompt TEXT NOT NULL,
  is_repeat INTEGER NOT NULL, check_kind TEXT, PRIMARY KEY (rater, seq));
CREATE TABLE answers (rater TEXT NOT NULL, seq INTEGER NOT NULL, answer TEXT NOT NULL, ms INTEGER,
  answered_at TEXT NOT NULL, PRIMARY KEY (rater, seq), FOREIGN KEY (rater, seq) REFERENCES tasks(rater, seq));
`;

describe('studio store', () => {
  it('opens a version-1 database: plan and answers kept, new columns and secret added', () => {
    const study = parseStudy({ name: 'old', kind: 'pairwise', raters: ['ann'] });
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(V1);
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    meta.run('schema_version', '1');
    meta.run('study', JSON.stringify(study));
    meta.run('created_at', '2026-01-01T00:00:00Z');
    meta.run('admin_token', 'admintoken-admintoken');
    db.prepare(
      'INSERT INTO items (key, run, id, prompt_id, prompt, image) VALUES (?, ?, ?, ?, ?, ?)',
    ).run('a/1', 'a', '1', 'p', 'x', '/a.png');
    db.prepare(
      'INSERT INTO items (key, run, id, prompt_id, prompt, image) VALUES (?, ?, ?, ?, ?, ?)',
    ).run('b/1', 'b', '1', 'p', 'x', '/b.png');
    db.prepare('INSERT INTO raters VALUES (?, ?)').run('ann', 'ann-token-ann-token');
    const task = db.prepare('INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    task.run('ann', 0, 0, '["a/1","b/1"]', 'p', 'x', 0, null);
    task.run('ann', 1, 0, '["b/1","a/1"]', 'p', 'x', 1, null);
    db.prepare('INSERT INTO answers VALUES (?, ?, ?, ?, ?)').run(
      'ann',
      0,
      '{"choice":1}',
      2100,
      '2026-01-01T00:01:00Z',
    );
    db.close();

    const store = openStudioStore(path, {
      study,
      items: [] as Item[],
      plan: { units: [], tasks: new Map() },
    });
    try {
      const tasks = store.tasks('ann');
      expect(tasks.map((t) => [t.seq, t.practice, t.answer, t.ms, t.server_ms])).toEqual([
        [0, false, { choice: 1 }, 2100, null],
        [1, false, null, null, null],
      ]);
      // A rater who already answered has started; the old answer can be undone like any.
      expect(store.started('ann')).toBe(true);
      expect(store.undoable('ann')).toBe(0);
      expect(store.pictureSecret).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(store.next('ann')).toMatchObject({ done: 1, total: 2, practice_total: 0 });
    } finally {
      store.close();
    }
    const again = new Database(path, { readonly: true });
    expect(again.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(STUDIO_SCHEMA_VERSION),
    });
    again.close();
  });
});
