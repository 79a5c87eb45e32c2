// One rollout's deterministic path: completion → artifact → render (in the caller's
// isolated renderer) → checks. Bad input never throws: a completion with no SVG gives an
// Inspection with render null and the artifact's error; a render failure is a value too.
import { extractArtifact, locateArtifact } from '../artifact/extract.ts';
import { promptIntent } from '../checks/prompt-intent.ts';
import { runChecks, summarizeChecks } from '../checks/run-checks.ts';
import type { CheckOptions } from '../checks/types.ts';
import type { DomainId } from '../core/domain-ids.ts';
import { makeError } from '../core/errors.ts';
import { loopTurn } from '../core/loop-turn.ts';
import { detectCompletionDomain } from '../domains/extract.ts';
import type { RenderResult } from '../render/types.ts';
import type { Inspection, InspectOptions } from './types.ts';

/** The renderer, the prompt, the domain and the check thresholds of one inspection. */
export interface InspectCompletionOptions extends InspectOptions {
  /** Overrides of the check thresholds (see DEFAULT_CHECK_OPTIONS). */
  checks?: Partial<CheckOptions>;
}

/**
 * One rollout's deterministic path: completion → code → render (in `opts.renderer`'s isolated
 * workers) → checks, for any domain. Bad input never throws: no code found gives `render: null`
 * and the artifact's error, a failed render is an error value in `render`.
 * @example
 * ```ts
 * const ins = await inspectCompletion(completion, { renderer: pool, prompt: 'a red apple' });
 * console.log(ins.render?.ok, ins.summary.blank, ins.summary.text_in_image);
 * ```
 */
export async function inspectCompletion(
  completion: string,
  opts: InspectCompletionOptions,
): Promise<Inspection> {
  // The render is sent before the tokens are counted, so the worker process draws (or, on a
  // cold start, boots) while this thread loads the tokenizer and counts: the two overlap.
  const located = locateArtifact(completion);
  const domain = resolveDomain(completion, opts.domain, located.found);
  if (domain !== 'svg') {
    // Loaded on demand: sharp and the domain renderers stay out of SVG-only start-up.
    const { inspectDomainCompletion } = await import('./inspect-domain.ts');
    return inspectDomainCompletion(completion, { ...opts, domain });
  }
  const rendering =
    located.found && located.svg !== undefined ? renderSafely(opts, located.svg) : null;
  const artifact = await extractArtifact(completion, located);
  // What the prompt asks for is read now, while the worker draws, not after.
  if (opts.prompt) promptIntent(opts.prompt);
  const render: RenderResult | null = rendering === null ? null : await rendering;
  // The checks read every pixel: they wait for their own turn of the loop (loop-turn.ts).
  await loopTurn();
  const checks = runChecks(artifact, render, opts.prompt, opts.checks, opts.rubricTerms);
  return { artifact, render, checks, summary: summarizeChecks(artifact, render, checks) };
}

/**
 * The domain to inspect in: an explicit one wins; 'auto' asks the fences, but an answer
 * holding an SVG (also inside an ```html fence) stays svg unless a fence names another domain.
 */
export function resolveDomain(
  completion: string,
  domain: DomainId | 'auto' | undefined,
  hasSvg: boolean,
): DomainId {
  if (domain !== undefined && domain !== 'auto') return domain;
  const detected = detectCompletionDomain(completion);
  if (detected === undefined || detected === 'svg') return 'svg';
  if (hasSvg && detected === 'html') return 'svg';
  return detected;
}

/**
 * The domain a completion will be inspected in, without rendering it: what
 * `inspectCompletion` decides (an explicit domain, else the fences; an SVG answer stays svg).
 * Cheap enough to check a whole input file before scoring it.
 * @example
 * ```ts
 * completionDomain('```python\nimport matplotlib\n```', 'auto'); // 'python'
 * ```
 */
export function completionDomain(completion: string, domain?: DomainId | 'auto' | null): DomainId {
  if (domain && domain !== 'auto') return domain;
  return resolveDomain(completion, 'auto', locateArtifact(completion).found);
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

/**
 * The plain-JSON view of an Inspection (`rubrica inspect --json`): no PNG bytes; `render` is
 * always an object (with `skipped: true` and the artifact's error when nothing was
 * rendered) so scripts can read `render.ok` and `render.error.code` unconditionally;
 * checks keyed by name.
 */
export function inspectionToJson(ins: Inspection): Record<string, unknown> {
  const a = ins.artifact;
  const r = ins.render;
  let render: Record<string, unknown>;
  if (r === null) {
    render = { ok: false, skipped: true, error: a.error ?? null };
  } else if (r.ok) {
    render = {
      ok: true,
      width: r.width,
      height: r.height,
      ms: r.ms,
      png_bytes: r.png.length,
      pixels: r.pixels,
      svg_stats: r.code,
    };
  } else {
    render = { ok: false, error: r.error, ms: r.ms, svg_stats: r.code ?? null };
  }
  const checks: Record<string, unknown> = {};
  for (const c of ins.checks) {
    const { name, ...rest } = c;
    checks[name] = rest;
  }
  return {
    artifact: {
      found: a.found,
      svg: a.svg ?? null,
      ...(a.domain && a.domain !== 'svg' ? { domain: a.domain, code: a.code ?? null } : {}),
      error: a.error ?? null,
      source: a.source ?? null,
      reasoning: a.reasoning,
      dwt: a.dwt,
      tokens: a.tokens,
    },
    render,
    checks,
    summary: ins.summary,
  };
}
