// The routes of the reward server, each declared once with createRoute so the zod schemas
// that validate a request also describe it in /openapi.json.
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { VERSION } from '../core/version.ts';
import type { RolloutInput } from '../pipeline/types.ts';
import { REWARD_COMPONENT_KEYS } from '../reward/components.ts';
import { responseFromQuery, userTextFromPrompt } from './chat-text.ts';
import type { ServerContext } from './context.ts';
import { groupStats } from './groups.ts';
import { outputText, userText } from './message-text.ts';
import {
  ComponentKeysSchema,
  ErrorSchema,
  HealthSchema,
  OpenRlhfRequestSchema,
  OpenRlhfResponseSchema,
  ReadySchema,
  RewardsRequestSchema,
  RewardsResponseSchema,
  SlimeRequestSchema,
  SlimeResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
  VerlRequestSchema,
  VerlResponseSchema,
} from './schemas.ts';
import {
  emptyOpenRlhfResult,
  toOpenRlhfResult,
  toSlimeResult,
  toVerifyResult,
  toVerlResults,
  trainerValues,
} from './trainer-shapes.ts';

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

const slimeRoute = createRoute({
  method: 'post',
  path: '/v1/slime',
  summary:
    "slime's remote reward model (--rm-type remote_rm --rm-url …/v1/slime --reward-key reward); the rubric id travels as label",
  request: { body: { ...json(SlimeRequestSchema, 'One slime sample'), required: true } },
  responses: { 200: json(SlimeResponseSchema, 'The sample’s reward and figures'), ...refusals },
});
const verifyRequest = {
  body: { ...json(VerifyRequestSchema, 'A verify request'), required: true },
};
const verifyResponses = {
  200: json(VerifyResponseSchema, 'The request with reward, components and figures'),
  ...refusals,
};
const VERIFY_SUMMARY =
  'NeMo Gym resources-server verify; grader faults are tagged _ng_failure_class, never a silent 0';
const verifyRoute = createRoute({
  method: 'post',
  path: '/verify',
  summary: VERIFY_SUMMARY,
  request: verifyRequest,
  responses: verifyResponses,
});
// NeMo Gym prefixes a resources server's paths with /ng-rollout/<id> when its observability
// is on (nemo_gym/server_utils.py).
const verifyRolloutRoute = createRoute({
  method: 'post',
  path: '/ng-rollout/{rollout}/verify',
  summary: `${VERIFY_SUMMARY} (under NeMo Gym's per-rollout prefix)`,
  request: { ...verifyRequest, params: z.object({ rollout: z.string() }) },
  responses: verifyResponses,
});
const componentsRoute = createRoute({
  method: 'get',
  path: '/v1/components',
  summary: 'The reward component keys of every reward kind (GDPO; flat extras comp_<key>)',
  responses: {
    200: json(ComponentKeysSchema, 'Reward kind → component keys'),
    401: json(ErrorSchema, 'Missing or wrong bearer token'),
  },
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
/** A rubric id from a trainer's label field (a string or a number; empty means none). */
const idOf = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : (str(v) ?? null);

/** A request's own `gate`, when it sent one (else the server's applies). */
const gateOf = (body: { gate?: string | string[] | undefined }) =>
  body.gate !== undefined ? { gate: body.gate } : {};

export function registerRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  app.openapi(rewardsRoute, async (c) => {
    const body = c.req.valid('json');
    const items: RolloutInput[] = body.items;
    const out = await ctx.score(c, items, {
      reward: body.reward,
      mode: body.mode,
      ...(body.gate !== undefined ? { gate: body.gate } : {}),
      ...(body.deadline_ms ? { deadlineMs: body.deadline_ms } : {}),
    });
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
    const out = await ctx.score(c, items, {
      reward: body.reward,
      mode: body.mode,
      ...gateOf(body),
    });
    if (!out.ok) return out.response as never;
    return c.json(toVerlResults(out.records, items), 200);
  });

  app.openapi(openrlhfRoute, async (c) => {
    const body = c.req.valid('json');
    // OpenRLHF before PR #1325 sends the 2nd..nth replica of --reward.remote_url an empty
    // slice of each one-sample batch; refusing it would fail the sample's reward.
    if (body.query.length === 0) {
      const first = Array.isArray(body.reward) ? body.reward[0] : body.reward;
      return c.json(emptyOpenRlhfResult(first), 200);
    }
    const items: RolloutInput[] = body.query.map((query, i) => {
      const prompt = body.prompts?.[i];
      return {
        id: `openrlhf-${i}`,
        prompt_id: idOf(body.labels?.[i]),
        prompt: prompt ? userTextFromPrompt(prompt) : null,
        completion: responseFromQuery(query, prompt),
      };
    });
    const out = await ctx.score(c, items, {
      reward: body.reward,
      mode: body.mode,
      ...gateOf(body),
      gather: true,
    });
    if (!out.ok) return out.response as never;
    return c.json(toOpenRlhfResult(out.records, items, out.batch), 200);
  });

  app.openapi(slimeRoute, async (c) => {
    const body = c.req.valid('json');
    const items: RolloutInput[] = [
      {
        id: 'slime-0',
        prompt_id: idOf(body.label),
        prompt: userText(body.prompt),
        completion: body.response,
      },
    ];
    const out = await ctx.score(c, items, {
      reward: body.reward,
      mode: body.mode,
      ...gateOf(body),
      gather: true,
    });
    if (!out.ok) return out.response as never;
    const v = trainerValues(out.records, items, out.batch);
    return c.json(toSlimeResult(out.records[0]!, v.scores[0]!, v.components[0]!), 200);
  });

  const verify = async (c: Context, body: z.infer<typeof VerifyRequestSchema>) => {
    const items: RolloutInput[] = [
      {
        id: 'verify-0',
        prompt_id: idOf(body.prompt_id) ?? idOf(body.label),
        prompt: userText(body.responses_create_params.input),
        completion: outputText(body.response.output),
      },
    ];
    const out = await ctx.score(c, items, { gather: true });
    if (!out.ok) return out.response;
    return c.json(toVerifyResult(body, out.records[0]!), 200);
  };
  app.openapi(verifyRoute, (c) => verify(c, c.req.valid('json')) as never);
  app.openapi(verifyRolloutRoute, (c) => verify(c, c.req.valid('json')) as never);

  app.openapi(componentsRoute, (c) =>
    c.json(
      Object.fromEntries(Object.entries(REWARD_COMPONENT_KEYS).map(([k, v]) => [k, [...v]])),
      200,
    ),
  );

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
    // The isolation report rides along; it never decides the status code.
    const doctor = ctx.doctor ? { doctor: ctx.doctor() } : {};
    if (ctx.admission.draining) {
      return c.json({ status: 'draining' as const, judge: null, ...doctor }, 503);
    }
    const judge = ctx.readiness ? await ctx.readiness() : null;
    const ready = judge === null || judge.answers;
    return c.json(
      { status: ready ? ('ready' as const) : ('not_ready' as const), judge, ...doctor },
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
      description:
        'Rubric rewards for RL trainers (rubrica native, verl, OpenRLHF, slime, NeMo Gym), with reward components for GDPO.',
    },
  });
}
