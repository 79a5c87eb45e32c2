// What the routes need from the app (app.ts builds it; routes.ts reads it).
import type { DoctorReport } from '../domains/doctor.ts';
import type { Admission, ServerLimits } from './admission.ts';
import type { ServerMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import type { ScoreCall } from './score-call.ts';

/** What the routes need from the app: one admitted, metered call of the scorer. */
export interface ServerContext {
  limits: ServerLimits;
  admission: Admission;
  metrics: ServerMetrics;
  startedAt: number;
  readiness?: Readiness | undefined;
  /** The isolation report for /readyz's body (null while it runs). */
  doctor?: (() => DoctorReport | null) | undefined;
  /** ε of the groups' `flat` flag (the health monitor's). */
  flatEpsilon?: number | undefined;
  score: ScoreCall;
}
