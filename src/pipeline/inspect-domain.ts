// The inspection of a completion written in another domain than SVG (python, latex, dot,
// vega-lite, …): find the domain's code, run it in its sandboxed renderer, measure the
// picture, and run the common checks plus the domain's own. Same Inspection shape as SVG, so
// rewards, records and reports need no second path. Never throws for bad input.

import { extractArtifact, locateArtifact } from '../artifact/extract.ts';
import { runChecks, summarizeChecks } from '../checks/run-checks.ts';
import type { CheckOptions } from '../checks/types.ts';
import { makeError } from '../core/errors.ts';
import { domainChecks } from '../domains/checks.ts';
import { locateDomainCode } from '../domains/extract.ts';
import { createDomainRenderers, type DomainRenderers } from '../domains/renderers.ts';
import type { DomainId, DomainNotes, DomainRender } from '../domains/types.ts';
import { flattenInPlace } from '../render/pixel-stats.ts';
import sharp from '../render/sharp.ts';
import type { CodeStats, Renderer, RenderOptions, RenderResult } from '../render/types.ts';
import type { Inspection } from './types.ts';

export interface DomainInspectOptions {
  domain: Exclude<DomainId, 'svg'>;
  renderer: Renderer;
  render?: RenderOptions;
  /** Warm renderers to use; without them a temporary set is started and closed. */
  domains?: DomainRenderers;
  prompt?: string;
  checks?: Partial<CheckOptions>;
}

/** Code facts for a non-SVG picture: the SVG-only measures are empty (no text, no clutter). */
function codeStats(code: string): CodeStats {
  return {
    bytes: Buffer.byteLength(code),
    elements: 0,
    maxDepth: 0,
    pathSegments: 0,
    expandedElements: 0,
    texts: [],
    strokedShapes: 0,
    removed: [],
    viewBox: null,
  };
}

/** A domain's render as the RenderResult checks and rewards read, pixels measured on white. */
export async function toRenderResult(r: DomainRender, code: string): Promise<RenderResult> {
  if (!r.ok) return { ok: false, error: r.error, ms: r.ms };
  try {
    const { data, info } = await sharp(r.png)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const stats = flattenInPlace(data, info.width, info.height, [255, 255, 255]);
    return {
      ok: true,
      png: r.png,
      width: r.width,
      height: r.height,
      ms: r.ms,
      code: codeStats(code),
      pixels: stats,
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: makeError('no_output', `unreadable picture: ${message}`), ms: r.ms };
  }
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
    const rendering = found.found ? renderers.render(o.domain, found.code) : null;
    const artifact = await extractArtifact(completion, located);
    if (rendering) {
      const r = await rendering;
      notes = r.notes;
      render = await toRenderResult(r, found.found ? found.code : '');
    }
    const checks = [
      ...runChecks(artifact, render, o.prompt, o.checks),
      ...domainChecks(o.domain, notes),
    ];
    return { artifact, render, checks, summary: summarizeChecks(artifact, render, checks) };
  } finally {
    await own?.close();
  }
}
