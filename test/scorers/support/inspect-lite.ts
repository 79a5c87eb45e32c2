// A small stand-in for the pipeline's inspectCompletion, for unit tests of the hybrid reward:
// the real artifact extraction and the real render pool, with a checks summary holding only
// what the hybrid reward reads (renders, DwT). End-to-end tests use inspectCompletion itself.
import { extractArtifact } from '../../../src/artifact/extract.ts';
import type { ChecksSummary } from '../../../src/core/record.ts';
import type { Inspection } from '../../../src/pipeline/types.ts';
import type { Renderer } from '../../../src/render/types.ts';

export async function inspectLite(completion: string, renderer: Renderer): Promise<Inspection> {
  const artifact = extractArtifact(completion);
  const render = artifact.found && artifact.svg ? await renderer.render(artifact.svg) : null;
  const summary: ChecksSummary = {
    renders: render?.ok === true,
    blank: false,
    ink_coverage: render?.ok ? render.pixels.inkCoverage : null,
    clipped: null,
    text_in_image: false,
    clutter: false,
    output_tokens: artifact.tokens.completion,
    svg_tokens: artifact.tokens.svg,
    dwt_stages: artifact.dwt.stages,
    dwt_valid: artifact.dwt.valid,
    values: {},
  };
  return { artifact, render, checks: [], summary };
}
