// The `rubrica` ORS environment's prompt, tools and results. Two tools: `submit(code)` scores
// the drawing and ends the episode; `render(code)` shows the policy its picture (no reward).
// How a rubrica outcome reads on the wire (docs/serve.md, "OpenReward Standard"):
//  - ok → the reward, with components, criteria and checks in `metadata`;
//  - unscoreable (no code, did not render, blank…) → reward 0.0, `metadata.rubrica_status`
//    and `reason`: a real zero the policy earned;
//  - grader fault → `reward: null`, `finished: true`, `metadata.grader_error: true` — never
//    `ok: false` or an `error` event, which TRL would show the policy as tool output and the
//    default reward function would turn into 0.0;
//  - `ok: false` only for an unknown tool or invalid input.
// The clients' parsers are strict: a tool spec has exactly name, description, input_schema;
// every block carries `detail` (null); an output has blocks, metadata, reward and finished.
import type { ScoreRecord } from '../../core/record.ts';
import { isGraderFaultRecord } from '../../core/status.ts';
import type { Inspection } from '../../inspect/types.ts';
import type { OrsTaskSpec } from './sessions.ts';

export type OrsBlock =
  | { type: 'text'; text: string; detail: null }
  | { type: 'image'; data: string; mimeType: string; detail: null };

export interface OrsToolOutput {
  blocks: OrsBlock[];
  metadata: Record<string, unknown> | null;
  reward: number | null;
  finished: boolean;
}

export type OrsRunToolOutput = { ok: true; output: OrsToolOutput } | { ok: false; error: string };

const CODE_INPUT = (what: string) => ({
  type: 'object',
  properties: { code: { type: 'string', description: what } },
  required: ['code'],
});

export const ORS_TOOLS = [
  {
    name: 'submit',
    description:
      'Submit your final drawing code to be scored. Call it once, with the complete code; the episode ends.',
    input_schema: CODE_INPUT('the complete code of the drawing (e.g. one <svg> document)'),
  },
  {
    name: 'render',
    description:
      'Render drawing code and see the picture without scoring it, to check your work before you submit.',
    input_schema: CODE_INPUT('the code of the drawing to preview'),
  },
] as const;

const text = (t: string): OrsBlock => ({ type: 'text', text: t, detail: null });

const LANGUAGE: Record<string, string> = {
  svg: 'one complete, self-contained SVG document (with a viewBox; no external images, fonts or scripts)',
  'vega-lite': 'one Vega-Lite JSON specification',
  html: 'one complete HTML page',
  mermaid: 'one Mermaid diagram',
  python: 'one Python matplotlib script',
  latex: 'one complete LaTeX document',
  dot: 'one Graphviz DOT graph',
  lilypond: 'one LilyPond score',
  smiles: 'one SMILES string',
};

/** The task's prompt: the drawing request and how to answer it. */
export function promptBlocks(task: OrsTaskSpec): OrsBlock[] {
  const what = LANGUAGE[task.domain] ?? `code in the ${task.domain} language`;
  return [
    text(
      `${task.prompt}\n\nWrite ${what}. You may call the \`render\` tool to see your picture; ` +
        'call the `submit` tool with the complete code to be scored — an answer that is not ' +
        'submitted is not scored.',
    ),
  ];
}

/** The completion rubrica scores for submitted code: SVG as is, other domains in an answer tag. */
export function completionFor(task: OrsTaskSpec, code: string): string {
  return task.domain === 'svg' ? code : `<answer>\n${code}\n</answer>`;
}

/** The code argument of a tool call, or the reason it is invalid. */
export function codeArgument(input: unknown): { code: string } | { error: string } {
  const code = (input as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return { error: 'input must be an object with a string "code"' };
  return { code };
}

/** A submit's result from its score record. */
export function submitOutput(record: ScoreRecord): OrsToolOutput {
  if (isGraderFaultRecord(record)) {
    return {
      blocks: [text('The grader could not score this submission (a grader fault, not yours).')],
      metadata: { grader_error: true, rubrica_status: record.status, reason: record.reason },
      reward: null,
      finished: true,
    };
  }
  if (record.status === 'gated') {
    // The policy's own 0 (issue 41): a gated check stopped it before any judge.
    return {
      blocks: [text(`Gated by ${record.reason ?? 'a check'}: ${record.message ?? ''} Reward 0.`)],
      metadata: { rubrica_status: 'gated', reason: record.reason ?? null },
      reward: 0,
      finished: true,
    };
  }
  if (record.status !== 'ok' || record.reward === null) {
    return {
      blocks: [text(`Not scoreable: ${record.reason ?? record.status}. Reward 0.`)],
      metadata: { rubrica_status: record.status, reason: record.reason ?? null },
      reward: 0,
      finished: true,
    };
  }
  return {
    blocks: [text(`Scored: ${record.reward.toFixed(3)}`)],
    metadata: {
      rubrica_status: 'ok',
      components: record.components,
      criteria: record.criteria,
      checks: record.checks,
      cached: record.cached,
    },
    reward: record.reward,
    finished: true,
  };
}

/** A render's result: the picture (PNG, base64 without a data: prefix) and what the checks saw. */
export function renderOutput(inspection: Inspection): OrsToolOutput {
  const r = inspection.render;
  const checks = inspection.summary;
  if (!r?.ok) {
    const why = r && !r.ok ? r.error.code : (inspection.artifact.error?.code ?? 'no_code');
    return {
      blocks: [text(`The code did not render (${why}).`)],
      metadata: { renders: false, reason: why },
      reward: null,
      finished: false,
    };
  }
  return {
    blocks: [
      { type: 'image', data: r.png.toString('base64'), mimeType: 'image/png', detail: null },
      text(`Rendered ${r.width}×${r.height}${checks.blank ? ' (blank)' : ''}.`),
    ],
    metadata: { renders: true, blank: checks.blank, clipped: checks.clipped },
    reward: null,
    finished: false,
  };
}
