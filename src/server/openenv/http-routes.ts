// OpenEnv's HTTP routes (`rubrica serve --openenv`): `/health`, `/metadata`, `/schema`, and
// the stateless `/reset`, `/step`, `/state` (each request is an episode of its own, as
// OpenEnv's http_server.py makes a fresh environment per request: a step names its task with
// `prompt_id`). A stateless step answers exactly as the WebSocket's step does.
import type { Context, Hono } from 'hono';
import { VERSION } from '../../core/version.ts';
import type { Admission, ServerLimits } from '../admission.ts';
import {
  actionOf,
  type OpenEnvDeps,
  OpenEnvInputError,
  resetResult,
  runStep,
  taskOfReset,
} from './episode.ts';

const ACTION_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'the complete code of the drawing' },
    tool: { type: 'string', enum: ['submit', 'render'], default: 'submit' },
    prompt_id: { type: 'string', description: 'stateless POST /step only: the task' },
  },
  required: ['code'],
};
const OBSERVATION_SCHEMA = {
  type: 'object',
  properties: {
    prompt_id: { type: 'string' },
    prompt: { type: 'string' },
    domain: { type: 'string' },
    instructions: { type: 'string' },
    status: {
      type: 'string',
      enum: ['ready', 'rendered', 'ok', 'unscoreable', 'grader_error', 'gated'],
    },
    reason: { type: ['string', 'null'] },
    grader_error: { type: 'boolean' },
    components: { type: 'object', additionalProperties: { type: 'number' } },
    criteria: { type: 'array' },
    image: { type: ['string', 'null'], description: 'PNG, base64 (render only)' },
  },
};
const STATE_SCHEMA = {
  type: 'object',
  properties: {
    episode_id: { type: ['string', 'null'] },
    step_count: { type: 'integer' },
    prompt_id: { type: ['string', 'null'] },
    done: { type: 'boolean' },
  },
};

const invalid = (c: Context, message: string) =>
  c.json({ detail: message, code: 'VALIDATION_ERROR' }, 422);

async function body(c: Context): Promise<Record<string, unknown>> {
  try {
    const v: unknown = await c.req.json();
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function registerOpenEnvRoutes(
  app: Hono,
  d: OpenEnvDeps & { admission: Admission; limits: ServerLimits },
): void {
  app.get('/health', (c) => c.json({ status: 'healthy' }));
  app.get('/metadata', (c) =>
    c.json({
      name: 'rubrica',
      description:
        'Rubric rewards for drawing code (SVG, charts, diagrams, LaTeX, …): reset picks a task, step scores {code}.',
      version: VERSION,
      documentation_url: 'docs/serve.md#openenv',
    }),
  );
  app.get('/schema', (c) =>
    c.json({ action: ACTION_SCHEMA, observation: OBSERVATION_SCHEMA, state: STATE_SCHEMA }),
  );
  app.get('/state', (c) =>
    c.json({ episode_id: null, step_count: 0, prompt_id: null, done: false }),
  );
  app.post('/reset', async (c) => {
    try {
      return c.json(resetResult(taskOfReset(d.tasks, await body(c))));
    } catch (err) {
      if (err instanceof OpenEnvInputError) return invalid(c, err.message);
      throw err;
    }
  });
  app.post('/step', async (c) => {
    const b = await body(c);
    const action = (b.action ?? {}) as Record<string, unknown>;
    let task: ReturnType<typeof taskOfReset>;
    let parsed: ReturnType<typeof actionOf>;
    try {
      task = taskOfReset(d.tasks, { prompt_id: action.prompt_id ?? b.prompt_id });
      parsed = actionOf(action);
    } catch (err) {
      if (err instanceof OpenEnvInputError) return invalid(c, err.message);
      throw err;
    }
    if (!d.admission.tryAcquire(1)) {
      c.header('Retry-After', String(d.limits.retryAfterSeconds));
      return c.json({ detail: 'server busy; retry later', code: 'busy' }, 503);
    }
    try {
      return c.json(await runStep(d, task, parsed, `openenv-http-${Date.now()}`));
    } finally {
      d.admission.release(1);
    }
  });
}
