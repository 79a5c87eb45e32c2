// Gating (issue 41): a rollout flagged by a gated check gets reward 0, status `gated`, the
// check as its reason, and is judged by no judge. The list of gated checks is parsed here
// once, for every face (CLI flags through src/cli/gate-flag.ts, serve's per-request field,
// the library's RolloutScorerOptions.gate), so an unknown name is the same stable error
// everywhere: `unknown_gate_check`.
import { RubricaError } from './errors.ts';
import { type GateCheck, GateCheckSchema } from './status.ts';

export type { GateCheck } from './status.ts';

/**
 * Gated unless told otherwise: text addressed to the judge (a verdict, an instruction, a
 * reserved marker written into the drawing or its code) is never worth judging.
 */
export const DEFAULT_GATE: readonly GateCheck[] = Object.freeze(['judge_text']);

/** Every check name `--gate` accepts. */
export const GATE_CHECKS: readonly GateCheck[] = GateCheckSchema.options;

/** A gate list naming a check rubrica does not have. */
export class GateError extends RubricaError<'unknown_gate_check'> {}

/**
 * The gated checks from a flag or field value: `CHECK[,CHECK…]` or a list of names; `none`
 * (alone) gates nothing; undefined/null gives DEFAULT_GATE. Names are trimmed, repeats
 * dropped. Throws GateError `unknown_gate_check` for a name that is not a check (or an empty
 * list: say `none` to turn gating off).
 */
export function parseGate(value: string | readonly string[] | null | undefined): GateCheck[] {
  if (value === undefined || value === null) return [...DEFAULT_GATE];
  const names = (typeof value === 'string' ? value.split(',') : [...value]).map((s) =>
    typeof s === 'string' ? s.trim() : String(s),
  );
  if (names.length === 1 && names[0] === 'none') return [];
  const out: GateCheck[] = [];
  for (const n of names) {
    const parsed = GateCheckSchema.safeParse(n);
    if (!parsed.success)
      throw new GateError(
        'unknown_gate_check',
        `unknown_gate_check: gate "${n}" is not a check (one of ${GATE_CHECKS.join(', ')}, or none)`,
      );
    if (!out.includes(parsed.data)) out.push(parsed.data);
  }
  return out;
}
