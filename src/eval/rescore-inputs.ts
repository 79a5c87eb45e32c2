// What `rubrica rescore` re-judges: a finished `score` output (scores.jsonl, whose rollouts
// come from --rollouts) or an `eval` run folder (results.jsonl keeps each rollout's prompt and
// completion, and images/ its picture). Each rollout comes back with the verdict it had, and
// the path of the picture the run kept, so the new judge looks at exactly what the old one
// did; without a kept picture the completion is rendered again.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type RolloutInput, RolloutInputSchema } from '../core/record.ts';
import { keyOf } from '../store/jsonl.ts';
import { isBadLine, streamJsonl } from '../store/jsonl-values.ts';
import { readResults } from './run-results.ts';

export interface RescoreItem {
  rollout: RolloutInput;
  old: { reward: number; status: string };
  /** The picture the run kept (absolute path), or null: render again. */
  image: string | null;
}

export interface RescoreInput {
  items: RescoreItem[];
  /** The reward kind compared. */
  reward: string;
  /** Lines or ids that could not be used, one message each. */
  problems: string[];
}

type Verdict = { reward?: unknown; status?: unknown; reward_kind?: unknown };

function verdictOf(v: Verdict | undefined): RescoreItem['old'] | null {
  if (!v || typeof v.reward !== 'number' || typeof v.status !== 'string') return null;
  return { reward: v.reward, status: v.status };
}

async function readRollouts(path: string, problems: string[]): Promise<Map<string, RolloutInput>> {
  const out = new Map<string, RolloutInput>();
  for await (const l of streamJsonl(path, { badLines: 'collect' })) {
    if (isBadLine(l)) {
      problems.push(`${path}:${l.line}: ${l.reason}`);
      continue;
    }
    const r = RolloutInputSchema.safeParse(l.value);
    if (!r.success) problems.push(`${path}:${l.line}: not a rollout line`);
    else out.set(r.data.id, r.data);
  }
  return out;
}

/** An eval run folder: results.jsonl's rollouts, verdicts and kept pictures. */
async function fromRunDir(dir: string, reward: string | undefined, problems: string[]) {
  if (!existsSync(join(dir, 'results.jsonl'))) {
    throw new Error(`${dir} is not an eval run folder: it holds no results.jsonl`);
  }
  const results = await readResults(join(dir, 'results.jsonl'));
  const kinds = new Set<string>();
  for (const r of results.values()) for (const k of Object.keys(r.scores)) kinds.add(k);
  const kind = reward ?? ['ruler', 'universal', 'rubric-s', ...kinds].find((k) => kinds.has(k));
  const items: RescoreItem[] = [];
  for (const r of results.values()) {
    const old = kind ? verdictOf(r.scores[kind]) : null;
    if (!old || typeof r.completion !== 'string') {
      problems.push(`${r.id}: no ${kind ?? 'reward'} verdict or no completion in results.jsonl`);
      continue;
    }
    const image = r.image ? join(dir, r.image) : null;
    items.push({
      rollout: {
        id: r.id,
        prompt_id: r.prompt_id,
        prompt: r.prompt,
        completion: r.completion,
        ...(r.domain ? { domain: r.domain } : {}),
      },
      old,
      image: image && existsSync(image) ? image : null,
    });
  }
  return { items, reward: kind ?? 'ruler' };
}

/** A score output: each line's verdict, its rollout from the rollouts file. */
async function fromScores(
  path: string,
  rolloutsPath: string,
  reward: string | undefined,
  problems: string[],
) {
  const rollouts = await readRollouts(rolloutsPath, problems);
  const items: RescoreItem[] = [];
  let kind = reward;
  for await (const l of streamJsonl(path, { badLines: 'collect' })) {
    if (isBadLine(l)) {
      problems.push(`${path}:${l.line}: ${l.reason}`);
      continue;
    }
    const rec = l.value as Verdict & { id?: unknown; rewards?: Record<string, Verdict> };
    const id = keyOf(rec?.id);
    if (id === null) continue;
    kind ??= typeof rec.reward_kind === 'string' ? rec.reward_kind : 'ruler';
    const old = verdictOf(rec.reward_kind === kind ? rec : rec.rewards?.[kind]);
    const rollout = rollouts.get(id);
    if (!old || !rollout) {
      problems.push(`${id}: ${old ? `not in ${rolloutsPath}` : `no ${kind} verdict`}`);
      continue;
    }
    items.push({ rollout, old, image: null });
  }
  return { items, reward: kind ?? 'ruler' };
}

/**
 * Reads what to re-judge. Throws an Error with a one-line message when `inPath` is a
 * scores file and no rollouts file was given (nothing to draw the pictures from).
 */
export async function readRescoreInput(
  inPath: string,
  opts: { rollouts?: string; reward?: string } = {},
): Promise<RescoreInput> {
  const problems: string[] = [];
  if (statSync(inPath).isDirectory()) {
    const r = await fromRunDir(inPath, opts.reward, problems);
    return { ...r, problems };
  }
  if (!opts.rollouts)
    throw new Error(
      `${inPath} is a scores file: give --rollouts FILE (the rollouts it scored) to draw the pictures again`,
    );
  const r = await fromScores(inPath, opts.rollouts, opts.reward, problems);
  return { ...r, problems };
}
