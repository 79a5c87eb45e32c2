// Drawing-with-Thought (Reason-SVG) stage detection. A stage counts when its name is used
// as a label: at the start of a line, after any heading marks, bullets, numbering
// ("3.", "c)", "Step 3:", "Stage 1 -"), bold or brackets, and before a delimiter (":", " - ",
// "—", "**", end of line). A sentence that merely mentions "the shape decomposition" in
// passing is not a stage marker: labels are at most six words long.
import { DWT_STAGES, type DwtReport, type DwtStage } from './types.ts';

const STAGE_PATTERNS: [DwtStage, RegExp][] = [
  ['concept_sketching', /\bconcept/],
  ['canvas_planning', /\bcanvas\b|\bview ?box\b/],
  ['shape_decomposition', /decompos|\bshapes? (breakdown|analysis|primitives)\b/],
  ['coordinate_calculation', /\bcoordinat/],
  ['styling_and_colouring', /\bstyl|\bcolou?r/],
  ['final_assembly', /\bassembl|\bfinal composition\b/],
];

// Decorations before a label. Every quantifier is bounded and the alternatives are
// disjoint, so this cannot backtrack badly; it only ever sees the first 200 chars of a line.
const PREFIX =
  /^[\s>|]{0,12}(?:#{1,6}[ \t]*)?(?:[-*+•][ \t]+)?(?:\*\*|__|\[)?[ \t]*(?:(?:step|stage|phase|part)[ \t]*\d{1,2}[ \t]*[:.)\-–—]?[ \t]*|\(?(?:\d{1,2}|[a-f]|[ivx]{1,4})[.)][ \t]*)?(?:\*\*|__)?[ \t]*/;
const LABEL_END = /[:(—–=|]| - |\*\*|__|\]|\. /;
const MAX_LABEL_WORDS = 6;

export interface StageHit {
  stage: DwtStage;
  /** Offset in the scanned text where the stage's line starts. */
  at: number;
}

/** Stages used as labels in `text`, each once, in order of first appearance. */
export function findDwtStages(text: string): StageHit[] {
  const hits: StageHit[] = [];
  const seen = new Set<DwtStage>();
  let lineStart = 0;
  while (lineStart <= text.length && seen.size < DWT_STAGES.length) {
    let nl = text.indexOf('\n', lineStart);
    if (nl === -1) nl = text.length;
    const stage = stageOfLine(text.slice(lineStart, Math.min(nl, lineStart + 200)));
    if (stage && !seen.has(stage)) {
      seen.add(stage);
      hits.push({ stage, at: lineStart });
    }
    lineStart = nl + 1;
  }
  return hits;
}

function stageOfLine(line: string): DwtStage | null {
  const lower = line.toLowerCase();
  const prefix = PREFIX.exec(lower);
  const rest = prefix ? lower.slice(prefix[0].length) : lower;
  // A label starts with a word: this rules out code such as "<style>" or "fill: …".
  const first = rest.charCodeAt(0);
  if (!(first >= 97 && first <= 122)) return null;
  const endMatch = LABEL_END.exec(rest);
  const label = (endMatch ? rest.slice(0, endMatch.index) : rest)
    .replace(/[_\-&/]+/g, ' ')
    .replace(/[^a-z ]+/g, '')
    .trim();
  if (label === '') return null;
  if (label.split(/ +/).length > MAX_LABEL_WORDS) return null;
  for (const [stage, pattern] of STAGE_PATTERNS) {
    if (pattern.test(label)) return stage;
  }
  return null;
}

/**
 * The DwT report for `text` (reasoning, or prose before the SVG). `beforeSvg` says the
 * text was written before the answer SVG; Reason-SVG's "structurally valid DwT" needs all
 * six stages, in order, before the SVG.
 */
export function dwtReport(text: string, beforeSvg: boolean): DwtReport {
  const hits = findDwtStages(text);
  const stages = hits.map((h) => h.stage);
  const complete = stages.length === DWT_STAGES.length;
  let ordered = true;
  for (let i = 1; i < stages.length; i++) {
    if (DWT_STAGES.indexOf(stages[i]!) < DWT_STAGES.indexOf(stages[i - 1]!)) ordered = false;
  }
  const found = stages.length > 0;
  return {
    stages,
    complete,
    ordered,
    beforeSvg: found && beforeSvg,
    valid: complete && ordered && beforeSvg,
  };
}
