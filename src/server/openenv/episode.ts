// One OpenEnv episode of the `rubrica` environment (`rubrica serve --openenv`): `reset`
// picks a task (a loaded rubric's prompt), `step` takes `{code}` and scores it (or, with
// `tool: "render"`, shows the picture without scoring). Shared by the WebSocket session and
// the stateless HTTP routes, so the two answer alike.
// What the client needs, read from huggingface/OpenEnv src/openenv/core at 385de5e:
//  - `Observation.metadata` is never sent on the wire (serialize_observation drops it), so
//    everything a trainer reads — status, reason, components — is an observation field;
//  - the client waits 60 s for each answer and then reads a late answer as the reply to its
//    NEXT message, so every step is answered within STEP_DEADLINE_MS: past it the
//    observation says `reason: "deadline"` with `reward: null` — a grader fault, never a 0 —
//    and the scoring runs on, its answer landing in the cache for the next request.
import type { ScoreRecord } from '../../core/record.ts';
import { isGraderFaultRecord } from '../../core/status.ts';
import { MAX_COMPLETION_CHARS } from '../../pipeline/completion-bound.ts';
import type { RolloutInput, RolloutScorer } from '../../pipeline/types.ts';
import type { OrsTaskSpec } from '../ors/sessions.ts';
import type { OrsTasks } from '../ors/tasks.ts';
import { completionFor, type OrsToolOutput, promptBlocks } from '../ors/tools.ts';

/** Well inside the client's 60 s per message. */
export const STEP_DEADLINE_MS = 55_000;

/** What `serialize_observation` sends: the observation's fields, reward and done. */
export interface OpenEnvResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

/** A message the client sent that cannot be acted on (VALIDATION_ERROR on the wire). */
export class OpenEnvInputError extends Error {}

export interface OpenEnvDeps {
  tasks: OrsTasks;
  scorer: RolloutScorer;
  preview?: ((item: RolloutInput) => Promise<OrsToolOutput>) | undefined;
  stepDeadlineMs?: number;
}

/** The task a reset names: `prompt_id`, or `split` (default train) and `index`/`task_index`. */
export function taskOfReset(tasks: OrsTasks, data: Record<string, unknown>): OrsTaskSpec {
  const id = data.prompt_id;
  if (typeof id === 'string' && id !== '') {
    for (const { name } of tasks.splits()) {
      const t = tasks.list(name)?.find((x) => x.prompt_id === id);
      if (t) return t;
    }
    throw new OpenEnvInputError(`no loaded rubric has prompt_id ${JSON.stringify(id)}`);
  }
  const split = typeof data.split === 'string' ? data.split : 'train';
  const index = data.index ?? data.task_index;
  const list = tasks.list(split);
  if (!list) throw new OpenEnvInputError(`unknown split ${JSON.stringify(split)}`);
  if (!Number.isInteger(index)) {
    throw new OpenEnvInputError('reset needs prompt_id, or index (with an optional split)');
  }
  const task = list.at(index as number);
  if (!task) throw new OpenEnvInputError(`no task ${index} in split ${split}`);
  return task;
}

const base = (task: OrsTaskSpec) => ({
  prompt_id: task.prompt_id,
  prompt: task.prompt,
  domain: task.domain,
});

/** The observation after reset: the task and how to answer it. */
export function resetResult(task: OrsTaskSpec): OpenEnvResult {
  const text = promptBlocks(task)[0]!;
  return {
    observation: {
      ...base(task),
      instructions: text.type === 'text' ? text.text : '',
      status: 'ready',
      reason: null,
      grader_error: false,
      components: {},
      image: null,
    },
    reward: null,
    done: false,
  };
}

function scored(task: OrsTaskSpec, record: ScoreRecord): OpenEnvResult {
  const fault = isGraderFaultRecord(record);
  const ok = record.status === 'ok' && record.reward !== null;
  return {
    observation: {
      ...base(task),
      status: record.status,
      reason: record.reason ?? null,
      grader_error: fault,
      components: record.components,
      criteria: record.criteria.map((c) => ({ key: c.key, score: c.score })),
      image: null,
    },
    reward: fault ? null : ok ? record.reward : 0,
    done: true,
  };
}

const faulted = (task: OrsTaskSpec, reason: string): OpenEnvResult => ({
  observation: {
    ...base(task),
    status: 'grader_error',
    reason,
    grader_error: true,
    components: {},
    image: null,
  },
  reward: null,
  done: true,
});

/** The code of a step's action, and which tool it asks for. */
export function actionOf(data: unknown): { code: string; tool: 'submit' | 'render' } {
  const a = (data ?? {}) as { code?: unknown; tool?: unknown };
  if (typeof a.code !== 'string') throw new OpenEnvInputError('the action needs a string "code"');
  const tool = a.tool ?? 'submit';
  if (tool !== 'submit' && tool !== 'render') {
    throw new OpenEnvInputError('"tool" is "submit" (default) or "render"');
  }
  // The code is a completion: the same per-rollout bound as every scoring route (issue 35).
  const max = MAX_COMPLETION_CHARS;
  if (a.code.length > max) {
    throw new OpenEnvInputError(
      `item_too_large: the code is ${a.code.length} characters; the limit is ${max}`,
    );
  }
  return { code: a.code, tool };
}

/** One step: scored (or previewed) within the deadline, else a `deadline` grader fault. */
export async function runStep(
  d: OpenEnvDeps,
  task: OrsTaskSpec,
  action: { code: string; tool: 'submit' | 'render' },
  id: string,
): Promise<OpenEnvResult> {
  const item: RolloutInput = {
    id,
    prompt_id: task.prompt_id,
    prompt: task.prompt,
    completion: completionFor(task, action.code),
    ...(task.domain !== 'svg' ? { domain: task.domain as RolloutInput['domain'] } : {}),
  };
  const work: Promise<OpenEnvResult> =
    action.tool === 'render'
      ? (d.preview ? d.preview(item) : Promise.reject(new Error('previews are off'))).then(
          (out) => ({
            observation: {
              ...base(task),
              status: 'rendered',
              reason: null,
              grader_error: false,
              components: {},
              image:
                out.blocks.find(
                  (b): b is Extract<typeof b, { type: 'image' }> => b.type === 'image',
                )?.data ?? null,
            },
            reward: null,
            done: false,
          }),
        )
      : d.scorer.scoreBatch([item]).then(([r]) => {
          if (!r) throw new Error('the scorer returned no record');
          return scored(task, r);
        });
  // The scoring is not cancelled at the deadline: it finishes and fills the cache.
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<OpenEnvResult>((resolve) => {
    timer = setTimeout(
      () => resolve(faulted(task, 'deadline')),
      d.stepDeadlineMs ?? STEP_DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([work.catch(() => faulted(task, 'infra_error')), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
