// The report's colours, shared by the CSS and the server-rendered charts so a status or a
// reward kind has one colour everywhere.
import type { RewardKind } from '../../core/record.ts';
import type { Outcome } from './outcome.ts';

export const OUTCOME_COLOURS: Record<Outcome, string> = {
  scored: '#2f855a',
  not_judged: '#b7791f',
  failed: '#c53030',
};

// Keyed by the one reward-kind vocabulary (src/core/record.ts): a new kind needs a colour.
const KIND_COLOURS: Record<RewardKind, string> = {
  universal: '#3b5bdb',
  ruler: '#7048e8',
  hybrid: '#0c8599',
  'rubric-s': '#d9480f',
  prisma: '#2b8a3e',
  direct: '#868e96',
};

const FALLBACK = ['#495057', '#5f3dc4', '#087f5b', '#a61e4d'];

export function kindColour(kind: string, index: number): string {
  return KIND_COLOURS[kind as RewardKind] ?? FALLBACK[index % FALLBACK.length]!;
}

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
