// PrismaForge's iterative data gating for one candidate sample, as one independent unit of
// work: execution check → rubric scoring → S < τ1 discard; τ1 ≤ S < τ2 re-synthesise (a
// generator model gets the instruction, the code and the failing criteria with the judges'
// rationales) and re-score, at most `rounds` times, each round starting from the best
// version so far; kept when it reaches τ2, discarded otherwise; S ≥ τ2 kept at once. Every
// round's score is recorded. A grader fault (judge, author or generator failing) is not a
// decision: the unit ends `grader_error` and a re-run does it again (answers already had
// are cached). The unit's key hashes everything that decides its outcome, so a distributed
// queue can run, de-duplicate and resume units.

import { createHash } from 'node:crypto';
import { artifactCode } from '../artifact/code.ts';
import type { DomainId } from '../core/domain-ids.ts';
import type { RewardResult } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { codeDomain } from '../inspect/code-domain.ts';
import type { Inspection } from '../inspect/types.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import { cacheKey } from '../store/keys.ts';

/**
 * One training sample to gate: an instruction and the code written for it, with its domain,
 * source dataset and PrismaForge family when known.
 */
export interface Candidate {
  id: string;
  instruction: string;
  code: string;
  domain?: string | null;
  source?: string | null;
  family?: string | null;
}

/**
 * PrismaForge's gate: keep at score ≥ `tau2`, re-synthesise between `tau1` and `tau2` for up
 * to `rounds` rounds, discard below `tau1`.
 */
export interface GateConfig {
  tau1: number;
  tau2: number;
  rounds: number;
}

/** PrismaForge's thresholds: τ1 = 0.5, τ2 = 0.75, two re-synthesis rounds. */
export const DEFAULT_GATE: GateConfig = { tau1: 0.5, tau2: 0.75, rounds: 2 };

export interface FailingCriterion {
  key: string;
  group: string;
  f: number;
  criterion: string;
  rationale: string;
}

export interface RoundRecord {
  round: number;
  score: number | null;
  status: string;
  reason?: string;
  code_sha256: string;
  failing: FailingCriterion[];
}

export type DecisionKind =
  | 'kept'
  | 'recovered'
  | 'discarded'
  | 'unexecutable'
  | 'no_rubric'
  | 'grader_error';

/**
 * What gating did with one candidate, and why: the decision, the score of every round, the
 * code kept (if any) and the cost by role. One line of the curation output.
 */
export interface Decision {
  id: string;
  unit: string;
  source: string;
  domain: string;
  instruction: string;
  decision: DecisionKind;
  reason?: string;
  message?: string;
  initial_score: number | null;
  final_score: number | null;
  rounds: RoundRecord[];
  /** The code kept (original or re-synthesised); null unless kept or recovered. */
  code: string | null;
  rubric_id: string | null;
  /** Cost ledger of this unit, by role. */
  usage: { author: Usage; judge: Usage; generator: Usage };
}

export type RubricLookup =
  | { ok: true; rubric: PrismaRubric; usage: Usage }
  | { ok: false; fault: boolean; message: string; usage: Usage };

export type Regenerated =
  | { ok: true; completion: string; usage: Usage }
  | { ok: false; message: string; usage: Usage };

/**
 * The collaborators `gateCandidate` calls: rubric lookup, execution check, scoring, re-synthesis;
 * `createCurateDeps` builds the real ones, tests inject their own.
 */
export interface GateDeps {
  /** Model ids and prompt versions that shape outcomes (part of the unit key). */
  identity: string[];

  rubricFor(c: Candidate, signal?: AbortSignal): Promise<RubricLookup>;
  /** Execution check: run / render the code (a completion or bare code) in its domain's sandbox. */
  inspect(code: string, domain: DomainId): Promise<Inspection>;
  /** The elastic rubric reward of an inspected sample. */
  score(rubric: PrismaRubric, ins: Inspection, signal?: AbortSignal): Promise<RewardResult>;
  regenerate(
    c: Candidate,
    rubric: PrismaRubric,
    code: string,
    failing: FailingCriterion[],
    /** 1-based: each round is a fresh draw (cached per round, so a resume replays it). */
    round: number,
    signal?: AbortSignal,
  ): Promise<Regenerated>;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The content address of a unit: what it reads and everything that decides its outcome. */
export function unitKey(c: Candidate, gate: GateConfig, identity: string[]): string {
  return cacheKey([
    'curate-unit',
    c.instruction,
    c.code,
    c.domain ?? 'svg',
    c.family ?? null,
    gate.tau1,
    gate.tau2,
    gate.rounds,
    ...identity,
  ]);
}

/** Criteria below full marks, with the judges' rationales (the generator's feedback). */
export function failingCriteria(rubric: PrismaRubric, r: RewardResult): FailingCriterion[] {
  const text = new Map(
    [...rubric.code_items, ...rubric.vision_items].map((i) => [
      `${i.modality}.${i.key}`,
      i.criterion,
    ]),
  );
  return r.criteria
    .filter((c) => c.score !== null && c.score < 1 && c.weight > 0 && text.has(c.key))
    .map((c) => ({
      key: c.key,
      group: c.key.split('.')[0]!,
      f: c.score!,
      criterion: text.get(c.key)!,
      rationale: c.rationale ?? '',
    }));
}

/** The code of a sample as its inspection found it (whatever the domain), else the text as given. */
const codeOf = (ins: Inspection, text: string) => artifactCode(ins.artifact) ?? text;

/**
 * PrismaForge's gating of one candidate: execute it, score it against its rubric, then
 * keep (S ≥ τ2), discard (S < τ1) or re-synthesise and re-score up to `gate.rounds` times.
 * Every round is recorded. A grader fault (judge, author or generator failing) is no
 * decision: the unit ends `grader_error` and a re-run does it again. Never rejects for a
 * failed model call.
 * @example
 * ```ts
 * const decision = await gateCandidate(candidate, DEFAULT_GATE, deps); // deps: createCurateDeps(…)
 * console.log(decision.decision, decision.final_score);
 * ```
 */
export async function gateCandidate(
  candidate: Candidate,
  gate: GateConfig,
  deps: GateDeps,
  signal?: AbortSignal,
): Promise<Decision> {
  const usage = { author: emptyUsage(), judge: emptyUsage(), generator: emptyUsage() };
  const rounds: RoundRecord[] = [];
  const declared = candidate.domain ?? null;
  const resolved = codeDomain(candidate.code, declared);
  // From here on the sample carries its domain: the rubric, the judges and the generator
  // work in it, and its unit key names it.
  const sample = resolved === null ? candidate : { ...candidate, domain: resolved };
  const base = {
    id: sample.id,
    unit: unitKey(sample, gate, deps.identity),
    source: sample.source ?? 'unknown',
    domain: sample.domain ?? 'svg',
    instruction: sample.instruction,
  };
  let rubricId: string | null = null;
  const end = (
    decision: DecisionKind,
    extra: { reason?: string; message?: string; code?: string | null } = {},
  ): Decision => {
    const scores = rounds.map((r) => r.score);
    return {
      ...base,
      decision,
      ...(extra.reason ? { reason: extra.reason } : {}),
      ...(extra.message ? { message: extra.message } : {}),
      initial_score: scores[0] ?? null,
      final_score: scores.at(-1) ?? null,
      rounds,
      code: extra.code ?? null,
      rubric_id: rubricId,
      usage,
    };
  };

  if (resolved === null) {
    // A declared domain rubrica does not know: nothing can execute it.
    rounds.push({
      round: 0,
      score: 0,
      status: 'unscoreable',
      reason: 'unknown_domain',
      code_sha256: sha(sample.code),
      failing: [],
    });
    return end('unexecutable', {
      reason: 'unknown_domain',
      message: `unknown domain ${JSON.stringify(declared)}`,
    });
  }
  const domain = resolved;
  // Round 0's execution check needs no model: a sample that does not run costs nothing.
  const first = await deps.inspect(sample.code, domain);
  const gateReason = executionFailure(first);
  if (gateReason) {
    rounds.push({
      round: 0,
      score: 0,
      status: 'unscoreable',
      reason: gateReason,
      code_sha256: sha(sample.code),
      failing: [],
    });
    return end('unexecutable', { reason: gateReason });
  }
  const lookup = await deps.rubricFor(sample, signal);
  usage.author = addUsage(usage.author, lookup.usage);
  if (!lookup.ok) {
    return end(lookup.fault ? 'grader_error' : 'no_rubric', {
      reason: lookup.fault ? 'author_error' : 'no_rubric',
      message: lookup.message,
    });
  }
  const rubric = lookup.rubric;
  rubricId = rubric.id;

  let best = { code: codeOf(first, sample.code), score: -1, failing: [] as FailingCriterion[] };
  let ins = first;
  let text = sample.code;
  for (let round = 0; round <= gate.rounds; round++) {
    if (round > 0) {
      const regen = await deps.regenerate(sample, rubric, best.code, best.failing, round, signal);
      usage.generator = addUsage(usage.generator, regen.usage);
      if (!regen.ok)
        return end('grader_error', { reason: 'generator_error', message: regen.message });
      text = regen.completion;
      ins = await deps.inspect(text, domain);
      const failed = executionFailure(ins);
      if (failed) {
        rounds.push({
          round,
          score: 0,
          status: 'unscoreable',
          reason: failed,
          code_sha256: sha(text),
          failing: [],
        });
        continue;
      }
    }
    const r = await deps.score(rubric, ins, signal);
    usage.judge = addUsage(usage.judge, r.usage);
    const code = codeOf(ins, text);
    if (isGraderFaultRecord(r)) {
      return end('grader_error', { reason: r.reason ?? 'judge_error', message: r.message });
    }
    const failing = r.status === 'ok' ? failingCriteria(rubric, r) : [];
    rounds.push({
      round,
      score: r.reward,
      status: r.status,
      ...(r.reason ? { reason: r.reason } : {}),
      code_sha256: sha(code),
      failing,
    });
    if (r.reward >= gate.tau2) return end(round === 0 ? 'kept' : 'recovered', { code });
    if (round === 0 && r.reward < gate.tau1) return end('discarded', { reason: 'below_tau1' });
    if (r.reward > best.score) best = { code, score: r.reward, failing };
  }
  return end('discarded', { reason: 'not_recovered' });
}

/** Why the code did not execute to a usable artifact, or null when it did. */
export function executionFailure(ins: Inspection): string | null {
  if (artifactCode(ins.artifact) === undefined) {
    const fallback = (ins.artifact.domain ?? 'svg') === 'svg' ? 'no_svg' : 'no_code';
    return ins.artifact.error?.code ?? fallback;
  }
  if (!ins.render) return 'render_error';
  if (!ins.render.ok) return ins.render.error.code;
  if (ins.summary.blank) return 'blank';
  return null;
}
