// The routes of the reward server, each declared once with createRoute so the zod schemas
// that validate a request also describe it in /openapi.json.
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import { VERSION } from '../core/version.ts';
import type { RolloutInput } from '../pipeline/types.ts';
import { responseFromQuery, userTextFromPrompt } from './chat-text.ts';
import type { ServerContext } from './context.ts';
import { groupStats } from './groups.ts';
import {
  ErrorSchema,
  HealthSchema,
  OpenRlhfRequestSchema,
  OpenRlhfResponseSchema,
  ReadySchema,
  RewardsRequestSchema,
  RewardsResponseSchema,
  VerlRequestSchema,
  VerlResponseSchema,
} from './schemas.ts';
import { toOpenRlhfResult, toVerlResults } from './trainer-shapes.ts';

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

const refusals = {
  400: json(
    ErrorSchema,
    'Malformed request, too many rollouts, or a reward that does not apply to a rollout domain (reward_not_applicable)',
  ),
  401: json(ErrorSchema, 'Missing or wrong bearer token'),
  413: json(ErrorSchema, 'Request body too large'),
  503: json(ErrorSchema, 'Too many rollouts in flight (see Retry-After) or shutting down'),
};
const OK = 'One result per rollout, in request order';

const rewardsRoute = createRoute({
  method: 'post',
  path: '/v1/rewards',
  summary: 'Score rollouts (rubrica native); results carry GRPO group stats and advantages',
  request: { body: { ...json(RewardsRequestSchema, 'Rollouts'), required: true } },
  responses: { 200: json(RewardsResponseSchema, OK), ...refusals },
});
const verlRoute = createRoute({
  method: 'post',
  path: '/v1/verl',
  summary: 'verl batch reward manager shape; the rubric id travels as ground_truth',
  request: { body: { ...json(VerlRequestSchema, 'A verl batch'), required: true } },
  responses: { 200: json(VerlResponseSchema, OK), ...refusals },
});
const openrlhfRoute = createRoute({
  method: 'post',
  path: '/v1/openrlhf',
  summary: 'OpenRLHF remote reward protocol; the rubric id travels as label',
  request: { body: { ...json(OpenRlhfRequestSchema, 'An OpenRLHF batch'), required: true } },
  responses: { 200: json(OpenRlhfResponseSchema, OK), ...refusals },
});

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness (never needs a token)',
  responses: { 200: json(HealthSchema, 'Serving'), 503: json(HealthSchema, 'Draining') },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/readyz',
  summary: 'Readiness: whether the judge answers (never needs a token)',
  responses: {
    200: json(ReadySchema, 'Ready: the judge answers (or none is needed)'),
    503: json(ReadySchema, 'Not ready: the judge does not answer, or draining'),
  },
});

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function registerRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  app.openapi(rewardsRoute, async (c) => {
    const body = c.req.valid('json');
    const items: RolloutInput[] = body.items;
    const out = await ctx.score(c, items, { reward: body.reward, mode: body.mode });
    if (!out.ok) return out.response as never;
    const stats = groupStats(items, out.records, undefined, ctx.flatEpsilon);
    const results = out.records.map((r, i) => ({ ...r, ...stats[i]! }));
    return c.json(out.health ? { results, health: out.health } : { results }, 200);
  });

  app.openapi(verlRoute, async (c) => {
    const body = c.req.valid('json');
    const items: RolloutInput[] = body.solution_strs.map((completion, i) => {
      const extra = body.extra_infos?.[i] ?? null;
      const gt = body.ground_truths[i];
      return {
        id: str(extra?.id) ?? `verl-${i}`,
        prompt_id: gt === null || gt === undefined || gt === '' ? null : String(gt),
        prompt: str(extra?.prompt) ?? null,
        completion,
      };
    });
    const out = await ctx.score(c, items, { reward: body.reward, mode: body.mode });
    if (!out.ok) return out.response as never;
    return c.json(toVerlResults(out.records, items), 200);
  });

  app.openapi(openrlhfRoute, async (c) => {
    const body = c.req.valid('json');
    const items: RolloutInput[] = body.query.map((query, i) => {
      const prompt = body.prompts?.[i];
      return {
        id: `openrlhf-${i}`,
        prompt_id: str(body.labels?.[i]) ?? null,
        prompt: prompt ? userTextFromPrompt(prompt) : null,
        completion: responseFromQuery(query, prompt),
      };
    });
    const out = await ctx.score(c, items, { reward: body.reward, mode: body.mode });
    if (!out.ok) return out.response as never;
    return c.json(toOpenRlhfResult(out.records, items), 200);
  });

  app.openapi(healthRoute, (c) => {
    const body = {
      status: ctx.admission.draining ? ('draining' as const) : ('ok' as const),
      in_flight: ctx.admission.inFlight,
      max_in_flight: ctx.admission.max,
      uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
    };
    return c.json(body, ctx.admission.draining ? 503 : 200);
  });

  app.openapi(readyRoute, async (c) => {
    if (ctx.admission.draining) return c.json({ status: 'draining' as const, judge: null }, 503);
    const judge = ctx.readiness ? await ctx.readiness() : null;
    const ready = judge === null || judge.answers;
    return c.json(
      { status: ready ? ('ready' as const) : ('not_ready' as const), judge },
      ready ? 200 : 503,
    );
  });

  app.get('/metrics', async (c) => {
    const text = await ctx.metrics.registry.metrics();
    return c.body(text, 200, { 'Content-Type': ctx.metrics.registry.contentType });
  });

  app.doc('/openapi.json', {
    openapi: '3.0.0',
    info: {
      title: 'rubrica reward service',
      version: VERSION,
      description: 'Rubric rewards for RL trainers (rubrica native, verl, OpenRLHF).',
    },
  });
}
