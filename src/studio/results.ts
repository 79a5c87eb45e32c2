// What a study produced: answers turned into the records `rubrica align` reads (JSONL and
// CSV), attention-check scores, each rater's self-agreement on repeated units, and the
// inter-rater agreement the admin view shows live (Krippendorff's α for ratings, raw pairwise
// agreement and Fleiss' κ for choices).
import { fleissKappa, krippendorffAlpha } from '../eval/stats/agreement.ts';
import type { StoredTask, StudioStore } from './store.ts';
import { type CheckKind, DEFAULT_TOO_FAST_MS } from './study.ts';
import { type RunStandings, runStandings } from './win-rates.ts';

/** Absolute ratings of a blank or off-prompt picture at or below this pass the check. */
export const CHECK_MAX_SCORE = 25;

export interface ExportRow {
  group: string;
  rater: string;
  repeat: boolean;
  ms: number | null;
  /** Time from the server handing out the screen to the answer (null in older databases). */
  server_ms: number | null;
  /** Answered in less than the study's `too_fast_ms` (docs/human-studies.md). */
  too_fast: boolean;
  /** Pairwise (also from rankings): a is the picture shown first. */
  a?: string;
  b?: string;
  winner?: 'a' | 'b' | 'tie';
  /** Absolute: the item and its 0–100 rating. */
  id?: string;
  score?: number;
  /** Per criterion; null when the rater left it untouched. */
  criteria?: Record<string, number | null>;
}

const answered = (t: StoredTask) => t.answer !== null;

/**
 * True when an answer came faster than `threshold` ms by the page's clock or the server's
 * (the server's cannot be forged from the page, the page's leaves out loading time).
 */
export function isTooFast(t: Pick<StoredTask, 'ms' | 'server_ms'>, threshold: number): boolean {
  return [t.ms, t.server_ms].some((v) => v !== null && v < threshold);
}

/** Rows for align: attention checks left out; repeats marked (`repeat: true`). */
export function exportRows(store: StudioStore): ExportRow[] {
  const rows: ExportRow[] = [];
  const threshold = store.study.too_fast_ms ?? DEFAULT_TOO_FAST_MS;
  for (const { name: rater } of store.raters()) {
    for (const t of store.tasks(rater)) {
      if (!answered(t) || t.check !== null || t.practice) continue;
      const a = t.answer!;
      const base = {
        group: t.prompt_id,
        rater,
        repeat: t.repeat,
        ms: t.ms,
        server_ms: t.server_ms,
        too_fast: isTooFast(t, threshold),
      };
      const keys = t.items as string[];
      if ('choice' in a) {
        rows.push({
          ...base,
          a: keys[0]!,
          b: keys[1]!,
          winner: a.choice === 'tie' ? 'tie' : a.choice === 0 ? 'a' : 'b',
        });
      } else if ('score' in a) {
        rows.push({
          ...base,
          id: keys[0]!,
          score: a.score,
          ...(a.criteria ? { criteria: a.criteria } : {}),
        });
      } else {
        // A ranking is three pairwise votes, each pair in display order.
        for (let i = 0; i < 3; i++)
          for (let j = i + 1; j < 3; j++) {
            const ri = a.order.indexOf(i);
            const rj = a.order.indexOf(j);
            rows.push({ ...base, a: keys[i]!, b: keys[j]!, winner: ri < rj ? 'a' : 'b' });
          }
      }
    }
  }
  return rows;
}

export function toJsonl(rows: readonly ExportRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

const CSV_COLUMNS = [
  'group',
  'a',
  'b',
  'winner',
  'id',
  'score',
  'rater',
  'repeat',
  'ms',
  'server_ms',
  'too_fast',
] as const;

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: readonly ExportRow[]): string {
  const criteria = [...new Set(rows.flatMap((r) => Object.keys(r.criteria ?? {})))];
  const header = [...CSV_COLUMNS, ...criteria.map((c) => `criterion:${c}`)];
  const lines = rows.map((r) =>
    [
      ...CSV_COLUMNS.map((c) => csvCell(r[c])),
      ...criteria.map((c) => csvCell(r.criteria?.[c])),
    ].join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

/** One attention check as a rater answered it. */
export interface CheckResult {
  seq: number;
  kind: CheckKind;
  passed: boolean;
  ms: number | null;
}

export interface RaterStats {
  name: string;
  /** Real screens (practice left out). */
  done: number;
  total: number;
  practice_done: number;
  practice_total: number;
  checks: number;
  checks_passed: number;
  /** Every answered check, in the order shown. */
  check_results: CheckResult[];
  /** Attention checks in the rater's plan, answered or not. */
  checks_planned: number;
  /** Answers (practice left out) under the study's too-fast threshold. */
  too_fast: number;
  /** Median time on screen of the rater's answers (practice left out), ms. */
  median_ms: number | null;
  /** Answers the rater took back with undo. */
  undone: number;
  /** Repeats answered both times. */
  repeats: number;
  /** Pairwise/triple: share of repeats with the same choice (best item); null without repeats. */
  self_agreement: number | null;
  /** Absolute: mean |first − repeat| on the 0–100 scale. */
  self_mean_abs_diff: number | null;
}

export interface StudyStats {
  kind: string;
  /** The threshold of `too_fast`, ms. */
  too_fast_ms: number;
  raters: RaterStats[];
  /** Per run: win rate (pairwise, triple) or mean rating (absolute) with a 95 % interval. */
  runs: RunStandings;
  /** Median time on screen over every rater's answers (practice left out), ms. */
  median_ms: number | null;
  /** Units answered by at least two raters. */
  shared_units: number;
  /** Absolute: Krippendorff's α (interval); triple: α over the ranks. */
  alpha: number | null;
  /** Pairwise / triple (best pick): raw pairwise agreement P̄ and Fleiss' κ. */
  pairwise_agreement: number | null;
  fleiss_kappa: number | null;
}

/** Time on screen: the page's measure, else the server's. */
const timeOf = (t: StoredTask): number | null => t.ms ?? t.server_ms;

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The item that won a pairwise or ranking answer (null for a tie), and a rating's score. */
function winnerOf(t: StoredTask): string | null {
  const a = t.answer!;
  if ('choice' in a) return a.choice === 'tie' ? null : (t.items[a.choice] ?? null);
  if ('order' in a) return t.items[a.order[0]!] ?? null;
  return null;
}

function checkPassed(t: StoredTask, promptOf: (key: string) => string | undefined): boolean {
  const a = t.answer!;
  const isCheck = (k: string | null) => k === null || promptOf(k) !== t.prompt_id;
  if ('score' in a) return a.score <= CHECK_MAX_SCORE;
  if ('choice' in a) return a.choice !== 'tie' && !isCheck(t.items[a.choice] ?? null);
  const last = t.items[a.order[a.order.length - 1]!] ?? null;
  return isCheck(last);
}

export function studyStats(store: StudioStore): StudyStats {
  const promptCache = new Map<string, string | undefined>();
  const promptOf = (key: string) => {
    if (!promptCache.has(key)) promptCache.set(key, store.item(key)?.prompt_id);
    return promptCache.get(key);
  };
  const raters: RaterStats[] = [];
  const threshold = store.study.too_fast_ms ?? DEFAULT_TOO_FAST_MS;
  const allTimes: number[] = [];
  /** unit → rater → first answer task. */
  const firsts = new Map<number, StoredTask[]>();
  for (const { name } of store.raters()) {
    const all = store.tasks(name);
    const tasks = all.filter((t) => !t.practice);
    const done = tasks.filter(answered);
    const checks = done.filter((t) => t.check !== null);
    const times = done.map(timeOf).filter((v): v is number => v !== null);
    allTimes.push(...times);
    const byUnit = new Map<number, StoredTask>();
    for (const t of done) if (t.unit !== null && !t.repeat) byUnit.set(t.unit, t);
    for (const [u, t] of byUnit) firsts.set(u, [...(firsts.get(u) ?? []), t]);
    const pairs = done
      .filter((t) => t.repeat && t.unit !== null && byUnit.has(t.unit))
      .map((t) => [byUnit.get(t.unit!)!, t] as const);
    const scored = pairs.filter(([x]) => 'score' in x.answer!);
    raters.push({
      name,
      done: done.length,
      total: tasks.length,
      practice_done: all.filter((t) => t.practice && answered(t)).length,
      practice_total: all.filter((t) => t.practice).length,
      checks: checks.length,
      checks_passed: checks.filter((t) => checkPassed(t, promptOf)).length,
      check_results: checks.map((t) => ({
        seq: t.seq,
        kind: t.check!,
        passed: checkPassed(t, promptOf),
        ms: timeOf(t),
      })),
      checks_planned: tasks.filter((t) => t.check !== null).length,
      too_fast: done.filter((t) => isTooFast(t, threshold)).length,
      median_ms: median(times),
      undone: store.undoCount(name),
      repeats: pairs.length,
      self_agreement:
        pairs.length > 0 && scored.length === 0
          ? pairs.filter(([x, y]) => winnerOf(x) === winnerOf(y)).length / pairs.length
          : null,
      self_mean_abs_diff:
        scored.length > 0
          ? scored.reduce(
              (s, [x, y]) =>
                s +
                Math.abs(
                  (x.answer as { score: number }).score - (y.answer as { score: number }).score,
                ),
              0,
            ) / scored.length
          : null,
    });
  }
  const shared = [...firsts.values()].filter((ts) => ts.length >= 2);
  const kind = store.study.kind;
  let alpha: number | null = null;
  let fleiss: { kappa: number | null; observed: number | null } = { kappa: null, observed: null };
  if (kind === 'absolute') {
    alpha = krippendorffAlpha(
      shared.map((ts) => ts.map((t) => (t.answer as { score: number }).score)),
    ).alpha;
  } else {
    // Categories: which of the unit's items (canonical = sorted keys) won, or a tie.
    const rows = shared.map((ts) => {
      const keys = [...(ts[0]!.items as string[])].sort();
      const counts = new Array<number>(keys.length + 1).fill(0);
      for (const t of ts) {
        const w = winnerOf(t);
        counts[w === null ? keys.length : keys.indexOf(w)]!++;
      }
      return counts;
    });
    fleiss = fleissKappa(rows);
    if (kind === 'triple') {
      // Each item's rank (1 best … 3) from every rater: α over items.
      const ranks = new Map<string, number[]>();
      for (const ts of shared)
        for (const t of ts) {
          const order = (t.answer as { order: number[] }).order;
          order.forEach((pos, rank) => {
            const k = t.items[pos] as string;
            ranks.set(k, [...(ranks.get(k) ?? []), rank + 1]);
          });
        }
      alpha = krippendorffAlpha([...ranks.values()]).alpha;
    }
  }
  return {
    kind,
    too_fast_ms: threshold,
    raters,
    runs: runStandings(exportRows(store), (k) => store.item(k)?.run, store.study.kind),
    median_ms: median(allTimes),
    shared_units: shared.length,
    alpha,
    pairwise_agreement: fleiss.observed,
    fleiss_kappa: fleiss.kappa,
  };
}
