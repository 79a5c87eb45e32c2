// Reading the two inputs of `rubrica align`: predicted scores (rubrica score lines, eval
// results.jsonl records, or plain {id, score}) and human judgements (absolute ratings or
// pairwise votes). Every bad or unusable line becomes a counted issue, never a throw.
import { z } from 'zod';
import { isGraderError } from '../summary.ts';
import { type LineIssue, readJsonLines, zodMessage } from './jsonl.ts';

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

const AbsoluteLine = z.looseObject({ id: Id, group: Id.optional(), score: Finite });
const PairwiseLine = z.looseObject({
  group: Id.optional(),
  a: Id,
  b: Id,
  winner: z.enum(['a', 'b', 'tie']),
});

export interface Predictions {
  /** id → predicted score. */
  scores: Map<string, number>;
  issues: LineIssue[];
}

export interface AbsoluteRating {
  id: string;
  /** Items without a group form groups of one: they count for ρ/r/τ, not for γ. */
  group: string | null;
  score: number;
}

export interface PairwiseVote {
  group: string | null;
  a: string;
  b: string;
  winner: 'a' | 'b' | 'tie';
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
  if (isGraderError(s)) {
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
  opts: { reward?: string; file?: string } = {},
): Predictions {
  const file = opts.file ?? 'pred';
  const kind = opts.reward ?? DEFAULT_ALIGN_REWARD;
  const { lines, issues } = readJsonLines(text, file);
  const scores = new Map<string, number>();
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
    const asEval = EvalLine.safeParse(value);
    if (asEval.success) {
      const picked = asEval.data.scores[kind];
      if (picked === undefined) {
        issues.push({ file, line, code: 'no_reward', message: `no scores.${kind}` });
        continue;
      }
      const r = fromScore(picked);
      if ('issue' in r) issues.push({ file, line, code: r.issue, message: r.message });
      else add(line, asEval.data.id, r.reward);
      continue;
    }
    const asScore = ScoreLine.safeParse(value);
    if (asScore.success) {
      const r = fromScore(value);
      if ('issue' in r) issues.push({ file, line, code: r.issue, message: r.message });
      else if (opts.reward === undefined || r.kind === undefined || r.kind === opts.reward) {
        add(line, asScore.data.id, r.reward);
      }
      continue;
    }
    const plain = PlainLine.safeParse(value);
    if (plain.success) add(line, plain.data.id, plain.data.score);
    else
      issues.push({
        file,
        line,
        code: 'bad_shape',
        message: 'expected {id, reward}, an eval record or {id, score}',
      });
  }
  return { scores, issues: byLine(issues) };
}

/** Parses human judgements; a file may mix absolute ratings and pairwise votes. */
export function parseHuman(text: string, file = 'human'): HumanJudgements {
  const { lines, issues } = readJsonLines(text, file);
  const absolute: AbsoluteRating[] = [];
  const pairwise: PairwiseVote[] = [];
  const seen = new Set<string>();
  for (const { line, value } of lines) {
    const isPair = typeof value === 'object' && value !== null && 'winner' in value;
    if (isPair) {
      const p = PairwiseLine.safeParse(value);
      if (!p.success) {
        issues.push({ file, line, code: 'bad_shape', message: zodMessage(p.error) });
      } else if (p.data.a === p.data.b) {
        issues.push({ file, line, code: 'bad_shape', message: 'a and b are the same item' });
      } else
        pairwise.push({
          group: p.data.group ?? null,
          a: p.data.a,
          b: p.data.b,
          winner: p.data.winner,
        });
      continue;
    }
    const r = AbsoluteLine.safeParse(value);
    if (!r.success) {
      issues.push({ file, line, code: 'bad_shape', message: zodMessage(r.error) });
    } else if (seen.has(r.data.id)) {
      issues.push({
        file,
        line,
        code: 'duplicate_id',
        message: `id ${r.data.id} seen before; kept the first`,
      });
    } else {
      seen.add(r.data.id);
      absolute.push({ id: r.data.id, group: r.data.group ?? null, score: r.data.score });
    }
  }
  return { absolute, pairwise, issues: byLine(issues) };
}
