// Deterministic criteria: every check is a small function of one shape, so rewards can
// weigh them and reports can show them side by side.

export interface CheckResult {
  name: string;
  /** The number behind the check (a score in [0,1] or a measurement, see `unit`). */
  value: number;
  /** Set where a threshold makes sense: true means "this is a problem". */
  flag?: boolean;
  unit?: 'score' | 'ratio' | 'count' | 'tokens' | 'mse';
  detail?: Record<string, unknown>;
}
