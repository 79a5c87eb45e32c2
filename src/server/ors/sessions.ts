// ORS sessions: one per rollout (plus one short-lived session per discovery call). A session
// is made by `POST /create_session` (its id), given its task by `POST /create`, and lives
// until `POST /delete` / `POST /delete_session` or until it has been idle for the TTL —
// counted from ANY request that names it, since the reference client's sync wrapper sends no
// ping while the trainer generates. A finished session is kept until it is deleted or goes
// idle, so a late `/call` resume still finds its result. The number of sessions is bounded so
// that a client that never deletes cannot grow the server without limit.
import { randomUUID } from 'node:crypto';

/** What a session's task is: the rubric it is scored against. */
export interface OrsTaskSpec {
  prompt_id: string;
  prompt: string;
  domain: string;
  [key: string]: unknown;
}

export interface OrsSession {
  readonly id: string;
  /** Null until `POST /create` gives it a task. */
  task: OrsTaskSpec | null;
  lastSeen: number;
  /** Set once `submit` has returned a final result. */
  finished: boolean;
}

export interface OrsSessionStoreOptions {
  /** Idle time after which a session is dropped, ms (default 900 s, the reference server's). */
  ttlMs?: number;
  /** Most sessions at once (default 10,000); `/create_session` is refused above it. */
  maxSessions?: number;
  now?: () => number;
}

export interface OrsSessionStore {
  /** A new session id, or null when the store is full. */
  open(): string | null;
  /** The session with this client-chosen id, made when unknown; null when the store is full. */
  adopt(id: string): OrsSession | null;
  /** The live session, its idle clock reset; undefined when unknown or expired. */
  touch(id: string): OrsSession | undefined;
  delete(id: string): boolean;
  readonly size: number;
  /** Drops idle sessions now (the timer does it every few seconds). */
  sweep(): number;
  close(): void;
}

export function createOrsSessionStore(opts: OrsSessionStoreOptions = {}): OrsSessionStore {
  const ttl = opts.ttlMs ?? 900_000;
  const max = opts.maxSessions ?? 10_000;
  const now = opts.now ?? Date.now;
  const sessions = new Map<string, OrsSession>();
  const expired = (s: OrsSession) => now() - s.lastSeen > ttl;
  const sweep = () => {
    let n = 0;
    for (const [id, s] of sessions) {
      if (expired(s)) {
        sessions.delete(id);
        n++;
      }
    }
    return n;
  };
  const touch = (id: string): OrsSession | undefined => {
    const s = sessions.get(id);
    if (!s) return undefined;
    if (expired(s)) {
      sessions.delete(id);
      return undefined;
    }
    s.lastSeen = now();
    return s;
  };
  const timer = setInterval(sweep, Math.min(5_000, Math.max(250, ttl / 4)));
  timer.unref();
  return {
    open() {
      if (sessions.size >= max && sweep() === 0) return null;
      const id = randomUUID();
      sessions.set(id, { id, task: null, lastSeen: now(), finished: false });
      return id;
    },
    adopt(id) {
      const known = touch(id);
      if (known) return known;
      if (sessions.size >= max && sweep() === 0) return null;
      const s: OrsSession = { id, task: null, lastSeen: now(), finished: false };
      sessions.set(id, s);
      return s;
    },
    touch,
    delete: (id) => sessions.delete(id),
    get size() {
      return sessions.size;
    },
    sweep,
    close: () => clearInterval(timer),
  };
}
