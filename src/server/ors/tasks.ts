// The ORS environment's tasks: one per prompt of the rubrics file the service loaded (kept
// rubrics only; a prompt with several presets is one task). A rubric line's own `split`
// ("train", "validation", "test" or any name) places it; lines without one are "train". A
// split named otherwise is typed "validation", as the reference server does.
import { DOMAIN_IDS, type DomainId } from '../../core/domain-ids.ts';
import { readJsonlSync } from '../../store/jsonl-values.ts';
import type { OrsTaskSpec } from './sessions.ts';

export interface OrsSplit {
  name: string;
  type: 'train' | 'validation' | 'test';
}

export interface OrsTasks {
  splits(): OrsSplit[];
  /** The split's tasks in file order, or undefined for an unknown split. */
  list(split: string): OrsTaskSpec[] | undefined;
}

const SPLIT_TYPES = new Set(['train', 'validation', 'test']);
const isDomain = (v: unknown): v is DomainId =>
  typeof v === 'string' && (DOMAIN_IDS as readonly string[]).includes(v);

/** Tasks from the values of a rubrics file (see `readOrsTasks`). */
export function orsTasksFrom(values: readonly unknown[]): OrsTasks {
  const bySplit = new Map<string, OrsTaskSpec[]>();
  const seen = new Set<string>();
  for (const v of values) {
    if (v === null || typeof v !== 'object') continue;
    const r = v as Record<string, unknown>;
    // A rubric line's `id` is its prompt's id (PrismaForge lines carry `prompt_id`).
    const id = typeof r.prompt_id === 'string' ? r.prompt_id : r.id;
    if (r.kept !== true || typeof id !== 'string' || typeof r.prompt !== 'string') continue;
    if (seen.has(id)) continue;
    seen.add(id);
    const split = typeof r.split === 'string' && r.split !== '' ? r.split : 'train';
    const task: OrsTaskSpec = {
      prompt_id: id,
      prompt: r.prompt,
      domain: isDomain(r.domain) ? r.domain : 'svg',
    };
    const list = bySplit.get(split) ?? [];
    list.push(task);
    bySplit.set(split, list);
  }
  if (bySplit.size === 0) bySplit.set('train', []);
  return {
    splits: () =>
      [...bySplit.keys()].map((name) => ({
        name,
        type: (SPLIT_TYPES.has(name) ? name : 'validation') as OrsSplit['type'],
      })),
    list: (split) => bySplit.get(split),
  };
}

/** Tasks from a rubrics.jsonl file (unreadable lines are skipped, as the scorer skips them). */
export function readOrsTasks(file: string | undefined): OrsTasks {
  return orsTasksFrom(file ? readJsonlSync(file).values.map((l) => l.value) : []);
}
