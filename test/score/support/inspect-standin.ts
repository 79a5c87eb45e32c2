// Stand-in for the pipeline's inspectCompletion while it is being written: the real
// artifact extractor and the real renderer, with a minimal checks summary. Used only
// until src/pipeline/inspect.ts lands; then tests import the real one.
import { extractArtifact } from '../../../src/artifact/extract.ts';
import type { Inspection, InspectOptions } from '../../../src/pipeline/types.ts';

export async function inspectStandIn(
  completion: string,
  opts: InspectOptions,
): Promise<Inspection> {
  const artifact = extractArtifact(completion);
  const render =
    artifact.found && artifact.svg ? await opts.renderer.render(artifact.svg, opts.render) : null;
  const ok = render?.ok === true;
  return {
    artifact,
    render,
    checks: [],
    summary: {
      renders: ok,
      blank: ok ? render.pixels.inkCoverage === 0 : false,
      ink_coverage: ok ? render.pixels.inkCoverage : null,
      clipped: null,
      text_in_image: false,
      clutter: false,
      output_tokens: artifact.tokens.completion,
      svg_tokens: artifact.tokens.svg,
      dwt_stages: artifact.dwt.stages,
      dwt_valid: artifact.dwt.valid,
      values: {},
    },
  };
}
