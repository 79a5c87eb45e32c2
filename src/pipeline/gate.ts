// Gating (issue 41, docs/artifact-and-checks.md "Gating"): after the checks and before any
// judge, a rollout flagged by a gated check gets every reward asked as 0 with status `gated`
// and the check as its reason. No judge is called for it, so nothing about it reaches the
// answer cache; it is the policy's own 0 (not a grader fault), so it counts in its GRPO
// group like any measured reward.
import { type GateCheck, GateError, parseGate } from '../core/gate.ts';
import type { RewardKind, RewardResult } from '../core/record.ts';
import { emptyUsage } from '../core/usage.ts';
import type { Inspection } from '../inspect/types.ts';
import { zeroComponents } from '../reward/components.ts';

/** The first gated check that flagged this inspection, with a message saying what it found. */
export interface GateHit {
  check: GateCheck;
  message: string;
}

/** The gated check that stops this rollout, or null (checks in the gate's order). */
export function gateHit(inspection: Inspection, gate: readonly GateCheck[]): GateHit | null {
  for (const name of gate) {
    const c = inspection.checks.find((r) => r.name === name && r.flag === true);
    if (c) return { check: name, message: `gated by ${name}: ${describe(c.detail)}` };
  }
  return null;
}

/** A short account of a check's detail: judge_text's first findings, else its JSON (bounded). */
function describe(detail: Record<string, unknown> | undefined): string {
  const findings = detail?.findings;
  if (Array.isArray(findings) && findings.length > 0) {
    return findings
      .slice(0, 3)
      .map(
        (f: { family?: string; where?: string; excerpt?: string }) =>
          `${f.family ?? '?'} in ${f.where ?? '?'}: "${f.excerpt ?? ''}"`,
      )
      .join('; ');
  }
  const json = JSON.stringify(detail ?? {});
  return json.length > 200 ? `${json.slice(0, 197)}…` : json;
}

/** One reward's verdict on a gated rollout: 0, status `gated`, the check as reason. */
export function gatedResult(kind: RewardKind, hit: GateHit): RewardResult {
  return {
    reward_kind: kind,
    reward: 0,
    status: 'gated',
    reason: hit.check,
    message: hit.message,
    criteria: [],
    tree: null,
    components: zeroComponents(kind),
    cached: false,
    usage: emptyUsage(),
  };
}

/** parseGate, its error as the caller's configuration error (the scorer's own class). */
export function resolveGate(
  value: string | readonly string[] | null | undefined,
  onError: (message: string) => Error,
): GateCheck[] {
  try {
    return parseGate(value);
  } catch (err) {
    if (err instanceof GateError) throw onError(err.message);
    throw err;
  }
}
