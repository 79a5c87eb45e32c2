// `--gate CHECK[,CHECK…]` (issue 41 item 3), one flag for score, serve, eval and rescore:
// a rollout flagged by a gated check gets reward 0 with status `gated` and no judge call.
// Parsed here once (core/gate.ts's parseGate), so an unknown name is the same stable error,
// `unknown_gate_check` (exit 2), before any model or file is touched.
import type { Command } from 'commander';
import { DEFAULT_GATE, GATE_CHECKS, type GateCheck, parseGate } from '../core/gate.ts';

/** The gate option as commander hands it over. */
export interface GateFlags {
  gate?: string;
}

export function addGateFlag(cmd: Command): Command {
  return cmd.option(
    '--gate <checks>',
    `checks whose flag makes a rollout's reward 0 (status gated, no judge call): CHECK[,CHECK…] of ${GATE_CHECKS.join(', ')}, or none (default ${DEFAULT_GATE.join(',')})`,
  );
}

/** The gated checks the flag names (DEFAULT_GATE when absent); throws `unknown_gate_check`. */
export function gateFromFlags(flags: GateFlags): GateCheck[] {
  return parseGate(flags.gate);
}
