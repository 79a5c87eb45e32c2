// The OpenReward Standard routes (`rubrica serve --ors`), at the root of the port beside
// rubrica's own: both ORS clients (openreward 0.1.112, which TRL imports, and the reference
// SDK at openrewardstandard/python-sdk@a399408) join every path to the URL's origin, so no
// prefix would be reachable. Each environment route answers at `/{env}/…` and at the bare
// path (TRL sends bare ones) alike — no redirect. One environment, `rubrica`; its tasks are
// the loaded rubrics (tasks.ts), its tools `submit` and `render` (tools.ts).
// Errors are `{"detail": …, "code": …}`: the clients show `detail`.
import type { Context, Hono } from 'hono';
import type { Logger } from 'pino';
import { MAX_COMPLETION_CHARS } from '../../pipeline/completion-bound.ts';
import type { RolloutInput, RolloutScorer } from '../../pipeline/types.ts';
import type { Admission, ServerLimits } from '../admission.ts';
import { callStream, eventsStream, SSE_HEADERS } from './call-stream.ts';
import type { OrsCallRegistry } from './calls.ts';
import type { OrsSession, OrsSessionStore, OrsTaskSpec } from './sessions.ts';
import { asciiJson, sseEvent } from './sse.ts';
import type { OrsTasks } from './tasks.ts';
import {
  codeArgument,
  completionFor,
  ORS_TOOLS,
  type OrsRunToolOutput,
  type OrsToolOutput,
  promptBlocks,
  submitOutput,
} from './tools.ts';

export const ORS_ENV = 'rubrica';

export interface OrsDeps {
  tasks: OrsTasks;
  sessions: OrsSessionStore;
  calls: OrsCallRegistry;
  scorer: RolloutScorer;
  /** The `render` tool: the picture of a completion, without a judge. */
  preview: (item: RolloutInput) => Promise<OrsToolOutput>;
  admission: Admission;
  limits: ServerLimits;
  log?: Logger | undefined;
  /** `: ping` interval while a call runs (call-stream.ts PING_MS by default). */
  pingMs?: number;
}

type Status = 400 | 404 | 409 | 503;
const fail = (c: Context, status: Status, code: string, detail: string) =>
  c.json({ detail, code }, status);

const ENV_SUFFIXES = [
  'tools',
  'splits',
  'tasks',
  'num_tasks',
  'task',
  'task_range',
  'task_tools',
  'prompt',
  'call',
] as const;

/** The paths an environment route answers at (bare and under the environment's name). */
export const orsPaths = (suffix: string) => [`/${suffix}`, `/:env/${suffix}`];

/** POST paths whose bodies go through the body limits. */
export const ORS_BODY_PATHS = [
  '/create',
  ...['tasks', 'num_tasks', 'task', 'task_range', 'call'].flatMap(orsPaths),
];

async function jsonBody(c: Context): Promise<Record<string, unknown> | null> {
  try {
    const v: unknown = await c.req.json();
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const sidOf = (c: Context) => c.req.header('x-session-id')?.trim() || undefined;

export function registerOrsRoutes(app: Hono, d: OrsDeps): void {
  const env = (c: Context) => {
    const name = c.req.param('env');
    return name === undefined || name.toLowerCase() === ORS_ENV;
  };
  const noEnv = (c: Context) =>
    fail(
      c,
      404,
      'unknown_environment',
      `unknown environment ${JSON.stringify(c.req.param('env'))}`,
    );

  /** The session a request names, its idle clock reset; a Response when there is none. */
  const session = (c: Context): OrsSession | Response => {
    const sid = sidOf(c);
    if (!sid) return fail(c, 400, 'no_session', 'X-Session-ID header is required');
    const s = d.sessions.touch(sid);
    return s ?? fail(c, 404, 'unknown_session', 'Active environment not found');
  };
  // Discovery calls carry an ephemeral session id; reading them resets its clock when known.
  const touchIfAny = (c: Context) => {
    const sid = sidOf(c);
    if (sid) d.sessions.touch(sid);
  };

  const splitTasks = async (c: Context) => {
    const body = await jsonBody(c);
    const split = body?.split;
    if (typeof split !== 'string')
      return { error: fail(c, 400, 'invalid_input', 'split is required') };
    const list = d.tasks.list(split);
    if (!list) return { error: fail(c, 400, 'invalid_split', 'Invalid split') };
    return { body: body!, list };
  };

  const route = (
    method: 'get' | 'post',
    suffix: (typeof ENV_SUFFIXES)[number],
    handler: (c: Context) => Response | Promise<Response>,
  ) => {
    for (const path of orsPaths(suffix)) {
      app[method](path, (c) => (env(c) ? handler(c) : noEnv(c)));
    }
  };

  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/list_environments', (c) => c.json([ORS_ENV]));
  app.post('/ping', (c) => {
    const s = session(c);
    return s instanceof Response ? s : c.json({ status: 'ok' });
  });

  route('get', 'tools', (c) => {
    touchIfAny(c);
    return c.json({ tools: ORS_TOOLS });
  });
  route('get', 'splits', (c) => {
    touchIfAny(c);
    return c.json(d.tasks.splits());
  });
  route('post', 'tasks', async (c) => {
    touchIfAny(c);
    const r = await splitTasks(c);
    return r.error ?? c.json({ tasks: r.list, env_name: ORS_ENV });
  });
  route('post', 'num_tasks', async (c) => {
    touchIfAny(c);
    const r = await splitTasks(c);
    return r.error ?? c.json({ num_tasks: r.list.length });
  });
  route('post', 'task', async (c) => {
    touchIfAny(c);
    const r = await splitTasks(c);
    if (r.error) return r.error;
    const i = r.body.index;
    const task = Number.isInteger(i) ? r.list.at(i as number) : undefined;
    if (!task) return fail(c, 400, 'invalid_index', 'Invalid index');
    return c.json({ task, env_name: ORS_ENV });
  });
  route('post', 'task_range', async (c) => {
    touchIfAny(c);
    const r = await splitTasks(c);
    if (r.error) return r.error;
    const int = (v: unknown) => (Number.isInteger(v) ? (v as number) : undefined);
    const { start, stop } = r.body;
    if ((start != null && int(start) === undefined) || (stop != null && int(stop) === undefined)) {
      return fail(c, 400, 'invalid_index', 'Invalid index range');
    }
    // Python's range semantics over the split (negative and missing bounds included).
    return c.json({ tasks: r.list.slice(int(start), int(stop)), env_name: ORS_ENV });
  });

  app.post('/create_session', (c) => {
    const sid = d.sessions.open();
    if (!sid) {
      c.header('Retry-After', String(d.limits.retryAfterSeconds));
      return fail(c, 503, 'too_many_sessions', 'too many open sessions; retry later');
    }
    const events = sseEvent('task_id', sid) + sseEvent('end', '');
    return c.body(eventsStream(events), 200, SSE_HEADERS);
  });
  app.post('/create', async (c) => {
    const sid = sidOf(c);
    if (!sid) return fail(c, 400, 'no_session', 'X-Session-ID header is required');
    const body = await jsonBody(c);
    if (!body) return fail(c, 400, 'invalid_input', 'a JSON object body is required');
    if (body.env_name != null && String(body.env_name).toLowerCase() !== ORS_ENV) {
      return fail(
        c,
        404,
        'unknown_environment',
        `unknown environment ${JSON.stringify(body.env_name)}`,
      );
    }
    const task = taskOf(d.tasks, body);
    if (typeof task === 'string') return fail(c, 400, 'invalid_task', task);
    const s = d.sessions.adopt(sid);
    if (!s) {
      c.header('Retry-After', String(d.limits.retryAfterSeconds));
      return fail(c, 503, 'too_many_sessions', 'too many open sessions; retry later');
    }
    if (s.task) return fail(c, 400, 'session_exists', 'Session already exists');
    s.task = task;
    return c.json({ sid });
  });
  const remove = (c: Context) => {
    const sid = sidOf(c);
    if (!sid) return fail(c, 400, 'no_session', 'X-Session-ID header is required');
    d.sessions.delete(sid);
    return c.json({ sid });
  };
  app.post('/delete', remove);
  app.post('/delete_session', remove);

  route('get', 'task_tools', (c) => {
    const s = session(c);
    return s instanceof Response ? s : c.json({ tools: ORS_TOOLS });
  });
  route('get', 'prompt', (c) => {
    const s = session(c);
    if (s instanceof Response) return s;
    if (!s.task) return fail(c, 409, 'no_task', 'the session has no task yet: POST /create first');
    return c.json(promptBlocks(s.task));
  });
  route('post', 'call', async (c) => {
    const s = session(c);
    if (s instanceof Response) return s;
    if (!s.task) return fail(c, 409, 'no_task', 'the session has no task yet: POST /create first');
    const body = await jsonBody(c);
    const taskId =
      typeof body?.task_id === 'string' && body.task_id !== '' ? body.task_id : undefined;
    const running = taskId ? d.calls.find(s.id, taskId) : undefined;
    if (running) return c.body(callStream(running, d.pingMs), 200, SSE_HEADERS);
    // ok:false texts start with "rubrica: " so a reward function can tell the policy's
    // mistake (shown to it as tool output) from a transport failure of the client.
    const answer = (out: OrsRunToolOutput) =>
      c.body(eventsStream(sseEvent('task_id', taskId ?? 'none') + resultOf(out)), 200, SSE_HEADERS);
    if (!body || typeof body.name !== 'string') {
      return answer({ ok: false, error: 'rubrica: a tool call needs "name" and "input"' });
    }
    const tool = body.name;
    if (tool !== 'submit' && tool !== 'render') {
      return answer({
        ok: false,
        error: `rubrica: unknown tool "${tool}"; the tools are submit and render`,
      });
    }
    const arg = codeArgument(body.input);
    if ('error' in arg) return answer({ ok: false, error: `rubrica: ${arg.error}` });
    if (tool === 'submit' && s.finished) {
      return answer({
        ok: false,
        error: 'rubrica: this episode is finished: submit was already called',
      });
    }
    // The code is a completion: over the per-rollout bound it is refused in-band, unscored
    // (src/server/item-bounds.ts), like any other bad tool input.
    if (arg.code.length > MAX_COMPLETION_CHARS) {
      return answer({
        ok: false,
        error: `rubrica: item_too_large: the code is ${arg.code.length} characters; the limit is ${MAX_COMPLETION_CHARS}`,
      });
    }
    // One rollout against --max-in-flight; a full server says so before the stream starts.
    if (!d.admission.tryAcquire(1)) {
      c.header('Retry-After', String(d.limits.retryAfterSeconds));
      const why = d.admission.draining ? 'server is shutting down' : 'server busy; retry later';
      return fail(c, 503, d.admission.draining ? 'draining' : 'busy', why);
    }
    const task = s.task;
    const item: RolloutInput = {
      id: `ors-${s.id}`,
      prompt_id: task.prompt_id,
      prompt: task.prompt,
      completion: completionFor(task, arg.code),
      ...(task.domain !== 'svg' ? { domain: task.domain as RolloutInput['domain'] } : {}),
    };
    const call = d.calls.start(
      s.id,
      () =>
        runTool(d, tool, item)
          .then((out) => {
            if (tool === 'submit') s.finished = true;
            return asciiJson({ ok: true, output: out });
          })
          .finally(() => d.admission.release(1)),
      taskId,
    );
    return c.body(callStream(call, d.pingMs), 200, SSE_HEADERS);
  });
}

const resultOf = (out: OrsRunToolOutput) => {
  const json = asciiJson(out);
  return sseEvent('end', json);
};

/** A tool's output; a grader that throws is a grader fault on the wire, never an error event. */
async function runTool(d: OrsDeps, tool: 'submit' | 'render', item: RolloutInput) {
  try {
    if (tool === 'render') return await d.preview(item);
    const [record] = await d.scorer.scoreBatch([item]);
    if (!record) throw new Error('the scorer returned no record');
    return submitOutput(record);
  } catch (err) {
    d.log?.error({ err, tool }, 'ors tool call failed');
    return {
      blocks: [{ type: 'text' as const, text: 'The grader failed on this call.', detail: null }],
      metadata: { grader_error: true, reason: 'infra_error' },
      reward: null,
      finished: tool === 'submit',
    };
  }
}

/** The task a `/create` body names (a task_spec with a known prompt_id, or split + index). */
function taskOf(tasks: OrsTasks, body: Record<string, unknown>): OrsTaskSpec | string {
  const spec = body.task_spec;
  if (spec !== undefined && spec !== null) {
    const id = (spec as { prompt_id?: unknown }).prompt_id;
    if (typeof id !== 'string') return 'task_spec needs the prompt_id of a loaded rubric';
    for (const { name } of tasks.splits()) {
      const found = tasks.list(name)?.find((t) => t.prompt_id === id);
      if (found) return found;
    }
    return `no loaded rubric has prompt_id ${JSON.stringify(id)}`;
  }
  const { split, index } = body;
  if (typeof split !== 'string' || !Number.isInteger(index)) {
    return 'provide either task_spec or both split and index';
  }
  const list = tasks.list(split);
  if (!list) return 'Invalid split';
  return list.at(index as number) ?? 'Invalid index';
}
