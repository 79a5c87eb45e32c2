// Tool calls that outlive their stream. The ORS clients read a `/call` answer as a stream and,
// when it breaks or falls silent for 30 s, POST the same body again with the `task_id` they
// were given: that re-POST must attach to the running call (or its kept result) and never
// start a second judge call. A call is keyed by session and task id, so one session cannot
// read another's result; its result is kept for KEEP_MS after it finishes (the reference
// server keeps 60 s).
import { randomBytes } from 'node:crypto';

/** How long a finished call's result stays readable by a resuming client. */
export const KEEP_MS = 120_000;

export interface OrsCall {
  readonly taskId: string;
  /** The result's JSON (RunToolOutput), once the call has finished. */
  readonly result: Promise<string>;
}

export interface OrsCallRegistry {
  /** The call of this session with this task id, if it is running or recently finished. */
  find(sessionId: string, taskId: string): OrsCall | undefined;
  /** Starts `run` as a new call under a fresh task id (or the one given, for a lost call). */
  start(sessionId: string, run: () => Promise<string>, taskId?: string): OrsCall;
  readonly running: number;
  close(): void;
}

export function createOrsCallRegistry(keepMs = KEEP_MS): OrsCallRegistry {
  const calls = new Map<string, OrsCall>();
  const timers = new Set<NodeJS.Timeout>();
  let running = 0;
  const key = (sid: string, taskId: string) => `${sid}\u0000${taskId}`;
  return {
    find: (sid, taskId) => calls.get(key(sid, taskId)),
    start(sid, run, given) {
      const taskId = given ?? randomBytes(16).toString('hex');
      running++;
      const result = run().finally(() => {
        running--;
        const t = setTimeout(() => {
          calls.delete(key(sid, taskId));
          timers.delete(t);
        }, keepMs);
        t.unref();
        timers.add(t);
      });
      // The stream may be gone when the result lands; nobody else awaits it then.
      result.catch(() => {});
      const call = { taskId, result };
      calls.set(key(sid, taskId), call);
      return call;
    },
    get running() {
      return running;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
