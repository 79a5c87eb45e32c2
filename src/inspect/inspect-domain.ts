// The inspection of a completion written in another domain than SVG (python, latex, dot,
// vega-lite, …): find the domain's code, run it in its sandboxed renderer, measure the
// picture, and run the common checks plus the domain's own. Same Inspection shape as SVG, so
// rewards, records and reports need no second path. Never throws for bad input.

import { extractArtifact, locateArtifact } from '../artifact/extract.ts';
import { runChecks, summarizeChecks } from '../checks/run-checks.ts';
import type { CheckOptions } from '../checks/types.ts';
import type { ResolvedAssets } from '../core/assets.ts';
import type { DomainId } from '../core/domain-ids.ts';
import { makeError } from '../core/errors.ts';
import { domainChecks } from '../domains/checks.ts';
import { locateDomainCode } from '../domains/extract.ts';
import { toRenderResult } from '../domains/render-result.ts';
import { createDomainRenderers, type DomainRenderers } from '../domains/renderers.ts';
import type { DomainNotes } from '../domains/types.ts';
import type { Renderer, RenderOptions, RenderResult } from '../render/types.ts';
import type { Inspection } from './types.ts';

export interface DomainInspectOptions {
  domain: Exclude<DomainId, 'svg'>;
  renderer: Renderer;
  render?: RenderOptions;
  /** Warm renderers to use; without them a temporary set is started and closed. */
  domains?: DomainRenderers;
  prompt?: string;
  /** The rubric's item titles and keys (judge_text). */
  rubricTerms?: readonly string[];
  checks?: Partial<CheckOptions>;
  /** The task's data files, readable by the job under their names. */
  assets?: ResolvedAssets;
}

export async function inspectDomainCompletion(
  completion: string,
  o: DomainInspectOptions,
): Promise<Inspection> {
  const base = locateArtifact(completion); // reasoning and DwT stages, whatever the domain
  const found = locateDomainCode(completion, o.domain);
  const located = found.found
    ? {
        found: true,
        domain: o.domain,
        code: found.code,
        source: found.source,
        reasoning: base.reasoning,
        dwt: base.dwt,
      }
    : {
        found: false,
        domain: o.domain,
        reasoning: base.reasoning,
        dwt: base.dwt,
        error: found.truncated
          ? makeError(
              'truncated' as const,
              `the ${o.domain} block is never closed (out of tokens?)`,
            )
          : makeError('no_code' as const, found.message),
      };
  let render: RenderResult | null = null;
  let notes: DomainNotes | undefined;
  const own = o.domains
    ? null
    : createDomainRenderers({
        svgRenderer: o.renderer,
        ...(o.render ? { svgOptions: o.render } : {}),
      });
  const renderers = o.domains ?? own!;
  try {
    const ro = o.assets && Object.keys(o.assets).length > 0 ? { assets: o.assets } : undefined;
    const rendering = found.found ? renderers.render(o.domain, found.code, ro) : null;
    const artifact = await extractArtifact(completion, located);
    if (rendering) {
      const r = await rendering;
      notes = r.notes;
      render = await toRenderResult(r, found.found ? found.code : '');
    }
    const checks = [
      ...runChecks(artifact, render, o.prompt, o.checks, o.rubricTerms),
      ...domainChecks(o.domain, notes),
    ];
    return { artifact, render, checks, summary: summarizeChecks(artifact, render, checks) };
  } finally {
    await own?.close();
  }
}
