// The rule-based zeros a judged reward applies before any judge call: no SVG, a truncated
// answer, a picture that did not render, a blank picture. Each is a fact about the rollout
// (status `unscoreable`), never a grader fault.
import type { UnscoreableCode } from '../core/status.ts';
import type { Inspection } from '../inspect/types.ts';

/** Blank pictures: 0 without a judge call (default), or judged like any other. */
export type BlankPolicy = 'zero' | 'judge';

/**
 * Why a rollout gets a rule-based zero before any judge is asked (no code, failed render,
 * blank picture, …).
 */
export interface Gate {
  reason: UnscoreableCode;
  message: string;
}

/** Why the inspected rollout cannot be judged, or null when its picture can be. */
export function pictureGate(ins: Inspection, blank: BlankPolicy = 'zero'): Gate | null {
  const art = ins.artifact;
  if (!art.found || (art.svg ?? art.code) === undefined) {
    return {
      reason: art.error?.code ?? 'no_svg',
      message: art.error?.message ?? 'no SVG in the completion',
    };
  }
  const render = ins.render;
  if (!render) return { reason: 'render_error', message: 'nothing was rendered' };
  if (!render.ok) return { reason: render.error.code, message: render.error.message };
  if (ins.summary.blank && blank === 'zero') {
    return { reason: 'blank', message: 'the picture is blank (nothing drawn on the background)' };
  }
  return null;
}
