// The contract of the per-rollout deterministic path: completion → artifact → render →
// checks. Every reward, record and report reads this one shape, whatever the domain.

import type { Artifact } from '../artifact/types.ts';
import type { CheckResult } from '../checks/types.ts';
import type { ResolvedAssets } from '../core/assets.ts';
import type { DomainId } from '../core/domain-ids.ts';
import type { ChecksSummary } from '../core/record.ts';
import type { DomainRenderers } from '../domains/renderers.ts';
import type { Renderer, RenderOptions, RenderResult } from '../render/types.ts';

/**
 * What the deterministic path found for one completion: its artifact, the render and the
 * check results. Every reward reads this one shape, whatever the domain.
 */
export interface Inspection {
  artifact: Artifact;
  /** null when there was no SVG to render. */
  render: RenderResult | null;
  checks: CheckResult[];
  summary: ChecksSummary;
}

export interface InspectOptions {
  prompt?: string;
  /** The rubric's item titles and keys (the judge_text check looks for them in the answer). */
  rubricTerms?: readonly string[];
  renderer: Renderer;
  render?: RenderOptions;
  /**
   * The completion's domain (docs/domains.md). Default 'auto': the fences decide, and an
   * answer with an SVG stays svg, as before domains existed.
   */
  domain?: DomainId | 'auto';
  /** Warm renderers for the other domains (without them, each call starts its own). */
  domains?: DomainRenderers;
  /**
   * The task's data files, resolved (src/domains/assets.ts): readable by this completion's job
   * under their names (python, vega-lite; docs/domains.md). SVG ignores them.
   */
  assets?: ResolvedAssets;
}

/** The inspect step as a function, so batch runs and tests can substitute their own. */
export type InspectFn = (completion: string, opts: InspectOptions) => Promise<Inspection>;
