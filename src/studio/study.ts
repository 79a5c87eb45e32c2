// What a study is: the study file (kind, sample, raters, repeats, attention checks), the
// pictures it draws from (eval run directories), and the plan built from both — fixed by a
// seed, so the same file over the same runs always gives the same units, order and sides.
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { seededRandom } from '../eval/stats/prng.ts';
import { StudioError } from './errors.ts';
import { readRunPictures } from './run-pictures.ts';

// stat never waits on what it names (a FIFO, a device); only regular files become pictures,
// so nothing that could block a reader is ever put in front of a rater.
const isRegularFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;

export const STUDY_KINDS = ['pairwise', 'absolute', 'triple'] as const;
export type StudyKind = (typeof STUDY_KINDS)[number];

export const StudySchema = z.strictObject({
  name: z.string().min(1).default('study'),
  kind: z.enum(STUDY_KINDS).default('pairwise'),
  seed: z.number().int().default(1),
  /** Prompts sampled (stratification unit); all when absent. */
  prompts: z.number().int().positive().optional(),
  /** Units per prompt: items (absolute), pairs (pairwise) or triples (triple). */
  per_prompt: z.number().int().positive().default(1),
  raters: z.array(z.string().min(1).max(60)).min(1).default(['rater1']),
  /** Share of units shown a second time (sides swapped) to measure self-agreement. */
  repeat_share: z.number().min(0).max(1).default(0.1),
  /** Attention checks per rater: a blank or an off-prompt picture. */
  attention_checks: z.number().int().min(0).default(2),
  allow_ties: z.boolean().default(true),
  question: z.string().optional(),
  /** Slider anchors for absolute ratings (RULER's form): position (0–100) → label. */
  anchors: z
    .record(z.string().regex(/^\d+$/), z.string())
    .default({ '0': 'unrecognisable / wrong', '50': 'recognisable, flawed', '100': 'excellent' }),
  /** Optional per-criterion ratings (absolute studies): one slider each. */
  criteria: z.array(z.strictObject({ id: z.string().min(1), text: z.string().min(1) })).default([]),
  // The fields below have no zod default on purpose: a database stores the study as parsed
  // and refuses another one, so a default added here would lock out every older database.
  /** The heading raters see (never `name`, which often names the conditions). */
  title: z.string().min(1).max(120).optional(),
  /** The instructions shown before the first screen; a default per kind when absent. */
  instructions: z.string().min(1).max(4000).optional(),
  /** Practice screens before the study (not counted); DEFAULT_PRACTICE when absent. */
  practice: z.number().int().min(0).max(10).optional(),
  /** Answers faster than this (ms on screen) are flagged; DEFAULT_TOO_FAST_MS when absent. */
  too_fast_ms: z.number().int().min(0).max(60_000).optional(),
});
export type Study = z.infer<typeof StudySchema>;

export const DEFAULT_QUESTION: Record<StudyKind, string> = {
  pairwise: 'Which picture matches the prompt better?',
  absolute: 'How well does the picture match the prompt?',
  triple: 'Rank the three pictures from best to worst.',
};

/** The heading raters see when the study file has no `title`: says nothing about the study. */
export const NEUTRAL_TITLE = 'Picture study';

/** Practice screens a rater gets when the study file does not say. */
export const DEFAULT_PRACTICE = 2;

/**
 * Answers given in less time than this are flagged "too fast" (admin page, export): under a
 * second nobody has read the prompt and looked at the pictures.
 */
export const DEFAULT_TOO_FAST_MS = 1000;

/** What raters read before their first screen, per kind, unless the study file says. */
export const DEFAULT_INSTRUCTIONS: Record<StudyKind, string> = {
  pairwise:
    'Each screen shows a prompt and two pictures drawn for it. Pick the picture that matches the prompt better — content first, then how well it is drawn. Choose "about the same" only when you really cannot tell.',
  absolute:
    'Each screen shows a prompt and one picture drawn for it. Rate how well the picture matches the prompt from 0 to 100, using the labels under the slider. Rate a criterion only when you have an opinion on it; leave it untouched otherwise.',
  triple:
    'Each screen shows a prompt and three pictures drawn for it. Click the best picture first, then the second best; the last one is placed by itself.',
};

/** One picture of a run: `key` is `run/id`, how exports and align name it. */
export interface Item {
  key: string;
  run: string;
  id: string;
  prompt_id: string;
  prompt: string;
  image: string;
}

/** A check's picture: a blank square, or a picture drawn for another prompt. */
export type CheckKind = 'blank' | 'off_prompt';

/** One screen a rater answers. `items` in display order (left → right); null = the blank. */
export interface Task {
  seq: number;
  unit: number | null;
  items: (string | null)[];
  prompt_id: string;
  prompt: string;
  repeat: boolean;
  check: CheckKind | null;
  /** A practice screen before the study: not counted, not exported. */
  practice: boolean;
}

export interface Unit {
  prompt_id: string;
  /** Item keys in canonical (sampled) order. */
  items: string[];
}

export interface Plan {
  units: Unit[];
  /** Rater name → that rater's tasks, in order. */
  tasks: Map<string, Task[]>;
}

export function parseStudy(raw: unknown, where = 'study file'): Study {
  const r = StudySchema.safeParse(raw ?? {});
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new StudioError('bad_study', `${where}: ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  if (new Set(r.data.raters).size !== r.data.raters.length)
    throw new StudioError('bad_study', `${where}: rater names must be distinct`);
  return r.data;
}

/** Every rendered picture of the given eval run directories; `warn` hears what was left out. */
export async function loadItems(
  dirs: readonly string[],
  warn: (message: string) => void = () => {},
): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const run = await readRunPictures(dir);
    // Unreadable lines and missing pictures are left out, and said: never silently.
    if (run.issues.length > 0) {
      const i = run.issues[0]!;
      warn(
        `${run.issues.length} line(s) of ${i.file} left out (first: line ${i.line}, ${i.code}: ${i.message})`,
      );
    }
    const missing = run.records.filter((r) => !isRegularFile(resolve(dir, r.image)));
    if (missing.length > 0)
      warn(
        `${missing.length} picture(s) of ${dir} not found, left out (first: ${missing[0]!.image})`,
      );
    for (const r of run.records) {
      const image = resolve(dir, r.image);
      if (!isRegularFile(image)) continue;
      const name = r.run ?? run.label;
      const key = `${name}/${r.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({
        key,
        run: name,
        id: r.id,
        prompt_id: r.prompt_id,
        prompt: r.prompt ?? '',
        image,
      });
    }
  }
  if (items.length === 0)
    throw new StudioError(
      'no_items',
      `no rendered pictures under ${dirs.map((d) => join(d, 'images')).join(', ')}`,
    );
  return items;
}

function shuffle<T>(xs: readonly T[], random: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Picks `size` items of one prompt, spread over as many runs as possible. */
function pickSpread(items: readonly Item[], size: number, random: () => number): Item[] | null {
  const byRun = new Map<string, Item[]>();
  for (const it of shuffle(items, random)) byRun.set(it.run, [...(byRun.get(it.run) ?? []), it]);
  const runs = shuffle([...byRun.keys()], random);
  const out: Item[] = [];
  for (let round = 0; out.length < size; round++) {
    let added = false;
    for (const r of runs) {
      const it = byRun.get(r)![round];
      if (it && out.length < size) {
        out.push(it);
        added = true;
      }
    }
    if (!added) break;
  }
  return out.length === size ? out : null;
}

const UNIT_SIZE: Record<StudyKind, number> = { absolute: 1, pairwise: 2, triple: 3 };

/** The stratified sample: up to `per_prompt` units from each of up to `prompts` prompts. */
export function sampleUnits(study: Study, items: readonly Item[]): Unit[] {
  const random = seededRandom(study.seed);
  const byPrompt = new Map<string, Item[]>();
  for (const it of items) byPrompt.set(it.prompt_id, [...(byPrompt.get(it.prompt_id) ?? []), it]);
  const prompts = shuffle([...byPrompt.keys()].sort(), random).slice(0, study.prompts ?? Infinity);
  const size = UNIT_SIZE[study.kind];
  const units: Unit[] = [];
  for (const p of prompts.sort()) {
    const used = new Set<string>();
    let made = 0;
    // Random draws spread over runs; a draw that repeats an earlier unit is drawn again.
    for (let attempt = 0; made < study.per_prompt && attempt < 20 * study.per_prompt; attempt++) {
      const pool = byPrompt.get(p)!.filter((it) => size > 1 || !used.has(it.key));
      const picked = pickSpread(pool, size, random);
      if (!picked) break;
      // Canonical order sorts by run/id, so "first item on the left" means the same run
      // everywhere and balancing sides balances each run's share of left places.
      const keys = picked.map((it) => it.key).sort();
      const sig = [...keys].sort().join('\u0000');
      if (used.has(sig)) continue;
      used.add(sig);
      if (size === 1) used.add(keys[0]!);
      units.push({ prompt_id: p, items: keys });
      made++;
    }
  }
  if (units.length === 0)
    throw new StudioError(
      'no_units',
      `no prompt has ${size} rendered pictures for a ${study.kind} study`,
    );
  return units;
}

/**
 * Each rater's tasks: every unit once in a rater-specific order, a `repeat_share` of them a
 * second time in the second half (sides reversed), and attention checks at random places.
 * Pairwise sides are balanced per rater: exactly half the pairs (±1) show the unit's first
 * item on the left, assigned by a seeded shuffle.
 */
export function buildPlan(study: Study, items: readonly Item[]): Plan {
  const units = sampleUnits(study, items);
  const byKey = new Map(items.map((it) => [it.key, it]));
  const tasks = new Map<string, Task[]>();
  const practice = practiceTasks(study, units, items);
  study.raters.forEach((rater, r) => {
    const random = seededRandom(study.seed * 7919 + r + 1);
    const order = shuffle(
      units.map((_, i) => i),
      random,
    );
    // Balanced sides: the first half of a shuffled list keeps canonical order, the rest flips.
    const flips = new Set(shuffle(order, random).slice(0, Math.floor(units.length / 2)));
    const show = (u: number, flip: boolean): string[] => {
      const keys = units[u]!.items;
      if (keys.length === 3) return shuffle(keys, random);
      return flip ? [...keys].reverse() : [...keys];
    };
    const main: Omit<Task, 'seq'>[] = order.map((u) => ({
      unit: u,
      items: show(u, flips.has(u)),
      prompt_id: units[u]!.prompt_id,
      prompt: byKey.get(units[u]!.items[0]!)!.prompt,
      repeat: false,
      check: null,
      practice: false,
    }));
    const nRepeat = Math.round(study.repeat_share * units.length);
    const repeats = shuffle(order, random)
      .slice(0, nRepeat)
      .map((u) => ({ ...main.find((t) => t.unit === u)!, repeat: true }))
      .map((t) => ({
        ...t,
        items: t.items.length === 3 ? shuffle(t.items, random) : [...t.items].reverse(),
      }));
    const list = [...main];
    for (const t of repeats) {
      // Into the second half, after the unit's first showing.
      const first = list.findIndex((x) => x.unit === t.unit && !x.repeat);
      const lo = Math.max(first + 1, Math.floor(list.length / 2));
      list.splice(lo + Math.floor(random() * (list.length - lo + 1)), 0, t);
    }
    for (let c = 0; c < study.attention_checks; c++) {
      const check = attentionCheck(units, byKey, c, random);
      list.splice(1 + Math.floor(random() * list.length), 0, check);
    }
    // Practice screens come first; their own random stream keeps the rest of the plan what
    // it was for the same seed before practice existed.
    tasks.set(
      rater,
      [...practice, ...list].map((t, seq) => ({ ...t, seq })),
    );
  });
  return { units, tasks };
}

/**
 * Practice screens, the same for every rater: pictures the sample does not use when a prompt
 * has enough of them (so practice previews no unit), else pictures of the sample.
 */
function practiceTasks(
  study: Study,
  units: readonly Unit[],
  items: readonly Item[],
): Omit<Task, 'seq'>[] {
  const n = study.practice ?? DEFAULT_PRACTICE;
  if (n === 0) return [];
  const random = seededRandom(study.seed * 104_729 + 17);
  const size = UNIT_SIZE[study.kind];
  const used = new Set(units.flatMap((u) => u.items));
  const byPrompt = (pool: readonly Item[]) => {
    const m = new Map<string, Item[]>();
    for (const it of pool) m.set(it.prompt_id, [...(m.get(it.prompt_id) ?? []), it]);
    return shuffle([...m.values()], random);
  };
  const out: Omit<Task, 'seq'>[] = [];
  for (const pool of [items.filter((it) => !used.has(it.key)), items]) {
    for (const group of byPrompt(pool)) {
      if (out.length >= n) break;
      const picked = pickSpread(group, size, random);
      if (!picked) continue;
      out.push({
        unit: null,
        items: shuffle(
          picked.map((it) => it.key),
          random,
        ),
        prompt_id: picked[0]!.prompt_id,
        prompt: picked[0]!.prompt,
        repeat: false,
        check: null,
        practice: true,
      });
    }
  }
  return out;
}

/**
 * An attention check: a unit of the study with one picture replaced by a blank (even checks)
 * or by a picture drawn for another prompt (odd checks, when there are two prompts). The
 * right answer is obvious: the real picture wins, is ranked last, or gets a low rating.
 */
function attentionCheck(
  units: readonly Unit[],
  byKey: ReadonlyMap<string, Item>,
  c: number,
  random: () => number,
): Omit<Task, 'seq'> {
  const unit = units[Math.floor(random() * units.length)]!;
  const prompt = byKey.get(unit.items[0]!)!;
  const others = units.filter((u) => u.prompt_id !== unit.prompt_id);
  const kind: CheckKind = c % 2 === 1 && others.length > 0 ? 'off_prompt' : 'blank';
  const odd = kind === 'blank' ? null : others[Math.floor(random() * others.length)]!.items[0]!;
  const items: (string | null)[] = [...unit.items];
  const slot = Math.floor(random() * items.length);
  items[slot] = odd;
  return {
    unit: null,
    items,
    prompt_id: prompt.prompt_id,
    prompt: prompt.prompt,
    repeat: false,
    check: kind,
    practice: false,
  };
}
