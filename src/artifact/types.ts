// What a completion holds once pulled apart: the SVG the model meant as its answer,
// its reasoning, the Drawing-with-Thought stages found there, and token counts.

import type { DomainId } from '../core/domain-ids.ts';
import type { ArtifactErrorCode, ErrorValue } from '../core/errors.ts';

/** Drawing-with-Thought's six reasoning stages (Reason-SVG), in their canonical order. */
export const DWT_STAGES = [
  'concept_sketching',
  'canvas_planning',
  'shape_decomposition',
  'coordinate_calculation',
  'styling_and_colouring',
  'final_assembly',
] as const;
/** One Drawing-with-Thought stage (see DWT_STAGES). */
export type DwtStage = (typeof DWT_STAGES)[number];

/** Which Drawing-with-Thought stages a completion's reasoning shows, and in what order. */
export interface DwtReport {
  /** Stages found in the reasoning, in the order they first appear. */
  stages: DwtStage[];
  /** All six present. */
  complete: boolean;
  /** The found stages appear in the canonical order. */
  ordered: boolean;
  /** Reasoning comes before the answer SVG. */
  beforeSvg: boolean;
  /** Reason-SVG's "structurally valid DwT": all six, in order, before the SVG. */
  valid: boolean;
}

/**
 * Where in the completion the answer's code was found: a fence of some language, an
 * `<answer>` tag, a whole HTML page, or an inline `<svg>`.
 */
export type ArtifactSource =
  | 'fence_svg'
  | 'fence_xml'
  | 'fence_html'
  | 'fence_bare'
  | 'answer_tag'
  | 'html_page'
  | 'inline'
  /** A fenced block of another domain (python, latex, …; see src/domains). */
  | 'fence';

/**
 * What extraction makes of one completion: the answer's code (SVG, or another domain's), its
 * reasoning, its Drawing-with-Thought report and token counts. `found: false` with `error`
 * (`no_svg`, `truncated`, …) is a value, never a throw: bad policy output is data.
 */
export interface Artifact {
  found: boolean;
  /** The extracted SVG code (XML prolog kept when present); svg domain only. */
  svg?: string;
  /** The domain the answer is written in; absent means svg (older records, SVG callers). */
  domain?: DomainId;
  /** Another domain's code (python script, TikZ, DOT, Vega-Lite JSON, HTML, Mermaid). */
  code?: string;
  error?: ErrorValue<ArtifactErrorCode>;
  source?: ArtifactSource;
  /** Text of the reasoning (<think> block, or text before </think> when the opener is missing). */
  reasoning: string;
  dwt: DwtReport;
  /**
   * Qwen-tokenizer counts. `estimated` is set when a text was longer than the exactly
   * counted prefix (EXACT_TOKEN_CHARS) and its tail was extrapolated.
   */
  tokens: { completion: number; svg: number; reasoning: number; estimated?: boolean };
  // (for other domains, `tokens.svg` counts the domain's code)
}
