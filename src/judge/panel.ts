// Judge panels (issue 37): several judges asked in parallel about the same picture (or the
// same ordered pair), combined by a declared rule. Absolute judging: each criterion's score is
// the weighted mean of the answering judges' scores (equal weights unless given, e.g. from
// human votes), renormalised over the judges that answered. Pairwise: the majority of the
// answering judges' winners (weights as votes); a tied vote is a tie. Each judge's answer stays
// on the criterion (`panel`). Quorum: the panel answers while at least `quorum` judges do
// (default: all of them, the strictest reading); below it the panel's verdict is a fault
// naming every judge's fault, never a zero.
import type { CriterionScore } from '../core/criteria.ts';
import { addUsage, emptyUsage } from '../core/usage.ts';
import type { Asked } from './cached-ask.ts';
import type { Judge, JudgeVerdict } from './judge.ts';
import type { PairwiseAnswer, PairwiseJudge } from './pairwise.ts';

export interface PanelOptions {
  /** Weight of each judge, in the order given (default: equal). */
  weights?: readonly number[];
  /** Judges that must answer (default: every judge). */
  quorum?: number | null;
}

/** The weights and quorum of a panel of n judges; throws RangeError when they cannot work. */
export function checkPanel(n: number, o: PanelOptions): { weights: number[]; quorum: number } {
  const weights = o.weights ? [...o.weights] : new Array<number>(n).fill(1);
  // A fitted weight may be 0 (align --fit-weights constrains weights ≥ 0): that judge is
  // asked and recorded but does not count; at least one weight must.
  if (
    weights.length !== n ||
    weights.some((w) => !(w >= 0) || !Number.isFinite(w)) ||
    !weights.some((w) => w > 0)
  )
    throw new RangeError(`a panel of ${n} judges needs ${n} weights ≥ 0, one positive`);
  const quorum = o.quorum ?? n;
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > n)
    throw new RangeError(`quorum ${quorum} must be between 1 and the ${n} judges of the panel`);
  return { weights, quorum };
}

/** A Judge that asks every judge of the panel and combines their criteria by weighted mean. */
export function createPanelJudge(judges: readonly Judge[], o: PanelOptions = {}): Judge {
  const { weights, quorum } = checkPanel(judges.length, o);
  const first = judges[0]!;
  return {
    mode: first.mode,
    modelId: `panel(${judges.map((j) => j.modelId).join(',')})`,
    promptVersion: first.promptVersion,
    async judge(req): Promise<JudgeVerdict> {
      const verdicts = await Promise.all(judges.map((j) => j.judge(req)));
      let usage = emptyUsage();
      for (const v of verdicts) usage = addUsage(usage, v.usage);
      const ok = verdicts.flatMap((v, k) => (v.ok ? [{ v, k }] : []));
      if (ok.length < quorum) {
        const why = verdicts
          .map((v, k) => (v.ok ? null : `${judges[k]!.modelId}: ${v.message}`))
          .filter(Boolean)
          .join('; ');
        const fault = verdicts.find((v) => !v.ok && v.fault === 'cache_error')
          ? 'cache_error'
          : 'judge_error';
        return {
          ok: false,
          fault,
          message: `panel: ${ok.length} of ${judges.length} judges answered, quorum ${quorum} (${why})`,
          usage,
          cached: false,
        };
      }
      const criteria: CriterionScore[] = req.items.map((it, i) => {
        let num = 0;
        let den = 0;
        for (const { v, k } of ok) {
          const s = v.ok ? v.criteria[i]!.score : null;
          if (s === null) continue;
          num += weights[k]! * s;
          den += weights[k]!;
        }
        const base = ok[0]!.v.ok ? ok[0]!.v.criteria[i]! : undefined;
        return {
          key: it.key,
          axis: it.axis,
          weight: it.weight,
          score: den > 0 ? num / den : null,
          ...(base?.rationale !== undefined ? { rationale: base.rationale } : {}),
          source: 'judge',
          panel: verdicts.map((v, k) =>
            v.ok
              ? { judge: judges[k]!.modelId, score: v.criteria[i]!.score }
              : { judge: judges[k]!.modelId, score: null, fault: v.fault },
          ),
        };
      });
      // ok[0] answered (the quorum is at least 1): its reading and provenance stand for the
      // panel's, with every judge of the panel named.
      const lead = ok[0]!.v as Extract<JudgeVerdict, { ok: true }>;
      return {
        ok: true,
        criteria,
        usage,
        cached: verdicts.every((v) => v.cached),
        scoring: lead.scoring,
        provenance: { ...lead.provenance, judge: judges.map((j) => j.modelId).join(' + ') },
      };
    },
  };
}

/** A PairwiseJudge whose winner is the weighted majority of the panel's answers. */
export function createPairwisePanel(
  judges: readonly PairwiseJudge[],
  o: PanelOptions = {},
): PairwiseJudge {
  const { weights, quorum } = checkPanel(judges.length, o);
  return {
    modelId: `panel(${judges.map((j) => j.modelId).join(',')})`,
    promptVersion: judges[0]!.promptVersion,
    async compare(req): Promise<Asked<PairwiseAnswer>> {
      const answers = await Promise.all(judges.map((j) => j.compare(req)));
      let usage = emptyUsage();
      for (const a of answers) usage = addUsage(usage, a.usage);
      let vote = 0; // > 0: first, < 0: second
      let n = 0;
      const reasons: string[] = [];
      answers.forEach((a, k) => {
        if (!a.ok) return;
        n++;
        const w = weights[k]!;
        vote += a.value.winner === 'first' ? w : a.value.winner === 'second' ? -w : 0;
        reasons.push(`${judges[k]!.modelId}: ${a.value.winner}`);
      });
      if (n < quorum)
        return {
          ok: false,
          fault: 'judge_error',
          message: `panel: ${n} of ${judges.length} judges answered, quorum ${quorum}`,
          usage,
          cached: false,
        };
      const winner = vote > 0 ? 'first' : vote < 0 ? 'second' : 'tie';
      return {
        ok: true,
        value: { winner, reasoning: `majority of the panel (${reasons.join(', ')})` },
        usage,
        cached: answers.every((a) => a.ok && a.cached),
      };
    },
  };
}
