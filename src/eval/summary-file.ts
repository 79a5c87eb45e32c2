// summary.json of an eval run: the run's summary with what produced it (judge, kinds,
// usage, settings).
import type { Usage } from '../core/usage.ts';
import type { JudgeProbe } from './run-judge.ts';
import type { RunSummary } from './summary.ts';

export interface EvalSummaryFile extends RunSummary {
  run: string;
  created_at: string;
  kinds: string[];
  judge: {
    spec: string;
    base_url: string | null;
    reachable: boolean | null;
    probe: JudgeProbe | null;
  };
  usage: { judge: Usage; policy: { model: string; usage: Usage } | null };
  settings: Record<string, string | number | boolean | null>;
  /** Wall time summed over every invocation of this run (DIR/parts.jsonl), resumes included. */
  elapsed_ms: number;
  /** Invocations that make up the run, and the last one's own time. */
  elapsed_parts: number;
  elapsed_last_ms: number;
}
