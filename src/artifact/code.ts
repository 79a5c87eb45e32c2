// The answer's code and domain as every reader after the inspection sees them: an SVG
// answer's code is its SVG, another domain's is its program (python script, Vega-Lite JSON,
// HTML page, …). Rewards, judges and curation read these two instead of `artifact.svg`, so
// a working matplotlib or Vega-Lite answer is judged on its own code, never as "no SVG".
import type { DomainId } from '../core/domain-ids.ts';
import type { Artifact } from './types.ts';

/** The answer's code, whatever its domain (the SVG for svg), or undefined when none was found. */
export function artifactCode(a: Pick<Artifact, 'found' | 'svg' | 'code'>): string | undefined {
  if (!a.found) return undefined;
  return a.svg ?? a.code;
}

/** The domain the answer was inspected in (absent on SVG answers and older records: svg). */
export function artifactDomain(a: Pick<Artifact, 'domain'>): DomainId {
  return a.domain ?? 'svg';
}
