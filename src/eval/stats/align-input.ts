// Reading the two inputs of `rubrica align`: predicted scores (rubrica score lines, eval
// results.jsonl records, or plain {id, score}) and human judgements (absolute ratings or
// pairwise votes). Every bad or unusable line becomes a counted issue, never a throw.
import { z } from 'zod';
import { isUnjudged } from '../../core/status.ts';
import { type JsonLine, type LineIssue, zodMessage } from './jsonl.ts';
import { type ColumnMap, readRecords, readWinner, type TableFormat } from './table-input.ts';

export const DEFAULT_ALIGN_REWARD = 'universal';

const Id = z.union([z.string().min(1), z.number()]).transform(String);
const Finite = z.number().refine(Number.isFinite, 'must be a finite number');

const ScoreLike = z.looseObject({
  reward: Finite,
  status: z.string().optional(),
  reason: z.string().optional(),
  reward_kind: z.string().optional(),
});
const EvalLine = z.looseObject({ id: Id, scores: z.record(z.string(), z.unknown()) });
const ScoreLine = ScoreLike.extend({ id: Id });
const PlainLine = z.looseObject({ id: Id, score: Finite });

const AbsoluteLine = z.looseObject({
  id: Id,
  group: Id.optional(),
  score: Finite,
  rater: Id.optional(),
});
const PairwiseLine = z.looseObject({
  id: Id.optional(),
  group: Id.optional(),
  rater: Id.optional(),
  a: Id,
  b: Id,
  winner: z.enum(['a', 'b', 'tie']),
});

export interface Predictions {
  /** id → predicted score. */
  scores: Map<string, number>;
  /** `run/id` → score, for eval records that name their run (ids repeat across runs). */
  byRun: Map<string, number>;
  /** A judge's own pairwise choices (`{group?, a, b, winner}` lines), in file order. */
  choices: PairwiseVote[];
  issues: LineIssue[];
  /**
   * id (and `run/id`) → the prompt its record names (`prompt_id`, else `prompt`), for the
   * records that name one: align warns when a vote compares pictures of two prompts.
   */
  prompts?: Map<string, string>;
}

/** Where a text came from and how to read it (JSONL by default; CSV/TSV with column names). */
export interface ReadOptions {
  file?: string;
  format?: TableFormat;
  columns?: ColumnMap;
}

export interface AbsoluteRating {
  id: string;
  /** Items without a group form groups of one: they count for ρ/r/τ, not for γ. */
  group: string | null;
  score: number;
  /** Who rated it, when the file says; one rater may rate an item once. */
  rater: string | null;
}

export interface PairwiseVote {
  group: string | null;
  a: string;
  b: string;
  winner: 'a' | 'b' | 'tie';
  /** Who voted, when the file says (self-agreement needs it). */
  rater: string | null;
  /**
   * The vote row's own id, when the file gives one: `--count votes` matches a judge's vote
   * to the human vote with the same id.
   */
  id?: string;
}

export interface HumanJudgements {
  absolute: AbsoluteRating[];
  pairwise: PairwiseVote[];
  issues: LineIssue[];
}

/** Issues in file order (bad JSON is found before shapes are checked). */
const byLine = (issues: LineIssue[]) => issues.sort((a, b) => a.line - b.line);

/** A score record's reward, or an issue when it is a grader failure rather than a score. */
function fromScore(
  value: unknown,
): { reward: number; kind?: string } | { issue: 'bad_shape' | 'grader_error'; message: string } {
  const parsed = ScoreLike.safeParse(value);
  if (!parsed.success) return { issue: 'bad_shape', message: zodMessage(parsed.error) };
  const s = parsed.data;
  if (isUnjudged(s)) {
    return { issue: 'grader_error', message: `${s.reason}: not a score, left out` };
  }
  return { reward: s.reward, kind: s.reward_kind };
}

/**
 * Parses predictions. `reward` picks `scores[reward]` from eval records (default
 * "universal"); when given explicitly it also filters score lines by their `reward_kind`.
 */
export function parsePredictions(
  text: string,
  opts: { reward?: string } & ReadOptions = {},
): Predictions {
  const file = opts.file ?? 'pred';
  const { lines, issues } = readRecords(text, file, opts);
  return parsePredictionLines(lines, issues, { ...opts, file });
}

/** Predictions from records already read (a file split by its `judge` column, say). */
export function parsePredictionLines(
  lines: readonly JsonLine[],
  issues: LineIssue[],
  opts: { reward?: string; file?: string } = {},
): Predictions {
  const file = opts.file ?? 'pred';
  const kind = opts.reward ?? DEFAULT_ALIGN_REWARD;
  const scores = new Map<string, number>();
  const byRun = new Map<string, number>();
  const choices: PairwiseVote[] = [];
  const prompts = new Map<string, string>();
  const promptOf = (value: unknown, id: string, run?: unknown) => {
    const v = value as { prompt_id?: unknown; prompt?: unknown };
    const p = v.prompt_id ?? v.prompt;
    if (typeof p !== 'string' && typeof p !== 'number') return;
    if (!prompts.has(id)) prompts.set(id, String(p));
    if (typeof run === 'string' && run !== '') prompts.set(`${run}/${id}`, String(p));
  };
  const add = (line: number, id: string, score: number) => {
    if (scores.has(id)) {
      issues.push({
        file,
        line,
        code: 'duplicate_id',
        message: `id ${id} seen before; kept the first`,
      });
    } else scores.set(id, score);
  };
  for (const { line, value } of lines) {
    if (isVoteLike(value)) {
      const v = readVote(value, file, line);
      if ('issue' in v) issues.push(v.issue);
      else choices.push(v.vote);
      continue;
    }
    const asEval = EvalLine.safeParse(value);
    if (asEval.success) {
      const picked = asEval.data.scores[kind];
      if (picked === undefined) {
        issues.push({ file, line, code: 'no_reward', message: `no scores.${kind}` });
        continue;
      }
      const r = fromScore(picked);
      if ('issue' in r) issues.push({ file, line, code: r.issue, message: r.message });
      else {
        const run = (asEval.data as { run?: unknown }).run;
        promptOf(value, asEval.data.id, run);
        // Two runs often share rollout ids (p01#0): `run/id` names an item unambiguously
        // (the studio exports that form); the bare id stays for single-run files.
        if (typeof run === 'string' && run !== '') {
          const key = `${run}/${asEval.data.id}`;
          if (byRun.has(key)) add(line, asEval.data.id, r.reward);
          else {
            byRun.set(key, r.reward);
            if (!scores.has(asEval.data.id)) scores.set(asEval.data.id, r.reward);
          }
        } else add(line, asEval.data.id, r.reward);
      }
      continue;
    }
    const asScore = ScoreLine.safeParse(value);
    if (asScore.success) {
      const r = fromScore(value);
      if ('issue' in r) issues.push({ file, line, code: r.issue, message: r.message });
      else if (opts.reward === undefined || r.kind === undefined || r.kind === opts.reward) {
        promptOf(value, asScore.data.id);
        add(line, asScore.data.id, r.reward);
      }
      continue;
    }
    const plain = PlainLine.safeParse(value);
    if (plain.success) {
      promptOf(value, plain.data.id);
      add(line, plain.data.id, plain.data.score);
    } else
      issues.push({
        file,
        line,
        code: 'bad_shape',
        message: 'expected {id, reward}, an eval record, {id, score} or {a, b, winner}',
      });
  }
  return { scores, byRun, choices, issues: byLine(issues), prompts };
}

const isVoteLike = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && 'winner' in value;

/** One pairwise vote, its winner read in any of the spellings readWinner knows. */
function readVote(
  value: Record<string, unknown>,
  file: string,
  line: number,
): { vote: PairwiseVote } | { issue: LineIssue } {
  const winner = readWinner(value.winner, value.a, value.b) ?? value.winner;
  const p = PairwiseLine.safeParse({ ...value, winner });
  if (!p.success) return { issue: { file, line, code: 'bad_shape', message: zodMessage(p.error) } };
  if (p.data.a === p.data.b)
    return { issue: { file, line, code: 'bad_shape', message: 'a and b are the same item' } };
  return {
    vote: {
      group: p.data.group ?? null,
      a: p.data.a,
      b: p.data.b,
      winner: p.data.winner,
      rater: p.data.rater ?? null,
      ...(p.data.id !== undefined ? { id: p.data.id } : {}),
    },
  };
}

/** Parses human judgements; a file may mix absolute ratings and pairwise votes. */
export function parseHuman(
  text: string,
  file = 'human',
  opts: Omit<ReadOptions, 'file'> = {},
): HumanJudgements {
  const { lines, issues } = readRecords(text, file, opts);
  const absolute: AbsoluteRating[] = [];
  const pairwise: PairwiseVote[] = [];
  const seen = new Set<string>();
  for (const { line, value } of lines) {
    if (isVoteLike(value)) {
      const v = readVote(value, file, line);
      if ('issue' in v) issues.push(v.issue);
      else pairwise.push(v.vote);
      continue;
    }
    // A rater's repeated rating (studio exports mark it) measures self-agreement; the
    // alignment uses the first one.
    if (
      typeof value === 'object' &&
      value !== null &&
      (value as { repeat?: unknown }).repeat === true
    )
      continue;
    const r = AbsoluteLine.safeParse(value);
    if (!r.success) {
      issues.push({ file, line, code: 'bad_shape', message: zodMessage(r.error) });
      continue;
    }
    // Several raters may rate one item; one rater rating it twice is a duplicate.
    const key = `${r.data.rater ?? ''}\u0000${r.data.id}`;
    if (seen.has(key)) {
      issues.push({
        file,
        line,
        code: 'duplicate_id',
        message: `id ${r.data.id} seen before${r.data.rater ? ` from rater ${r.data.rater}` : ''}; kept the first`,
      });
    } else {
      seen.add(key);
      absolute.push({
        id: r.data.id,
        group: r.data.group ?? null,
        score: r.data.score,
        rater: r.data.rater ?? null,
      });
    }
  }
  return { absolute, pairwise, issues: byLine(issues) };
}
