// One rollout's deterministic path: completion → artifact → render (in the caller's
// isolated renderer) → checks. Bad input never throws: a completion with no SVG gives an
// Inspection with render null and the artifact's error; a render failure is a value too.
import { extractArtifact } from '../artifact/extract.ts';
import { runChecks, summarizeChecks } from '../checks/run-checks.ts';
import type { CheckOptions } from '../checks/types.ts';
import { makeError } from '../core/errors.ts';
import type { RenderResult } from '../render/types.ts';
import type { InspectOptions, Inspection } from './types.ts';

export interface InspectCompletionOptions extends InspectOptions {
  /** Overrides of the check thresholds (see DEFAULT_CHECK_OPTIONS). */
  checks?: Partial<CheckOptions>;
}

export async function inspectCompletion(
  completion: string,
  opts: InspectCompletionOptions,
): Promise<Inspection> {
  const artifact = extractArtifact(completion);
  let render: RenderResult | null = null;
  if (artifact.found && artifact.svg !== undefined) {
    render = await renderSafely(opts, artifact.svg);
  }
  const checks = runChecks(artifact, render, opts.prompt, opts.checks);
  return { artifact, render, checks, summary: summarizeChecks(artifact, render, checks) };
}

/**
 * A Renderer reports bad SVGs as values; it only rejects when the renderer itself is
 * unusable (closed, queue full). That still must not become an exception per rollout, so
 * it is recorded as a render_error carrying the renderer's message.
 */
async function renderSafely(opts: InspectOptions, svg: string): Promise<RenderResult> {
  const started = performance.now();
  try {
    return await opts.renderer.render(svg, opts.render);
  } catch (err) {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return {
      ok: false,
      error: makeError('render_error', `renderer failed: ${message}`),
      ms: performance.now() - started,
    };
  }
}
