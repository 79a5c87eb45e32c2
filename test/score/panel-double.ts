// A panel of three judges on one model double, told apart by model name: judge-a scores
// every criterion 0.2, judge-c 0.8, and judge-b answers every call with HTTP 500 (its faults
// must not fault a panel whose quorum answers). Used by the panel tests of each command.
import type { DoubleReply, DoubleRequest } from '../support/model-double.ts';

export const PANEL_JUDGES = [
  'openai-compatible:judge-a',
  'openai-compatible:judge-b',
  'openai-compatible:judge-c',
] as const;

const SCORE: Record<string, number> = { 'judge-a': 0.2, 'judge-c': 0.8 };

export function panelHandler(req: DoubleRequest): DoubleReply {
  const s = SCORE[req.model];
  if (s === undefined) return { status: 500 };
  const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
  return {
    content: JSON.stringify(
      Object.fromEntries(keys.map((k) => [k, { reasoning: req.model, score: s }])),
    ),
  };
}
