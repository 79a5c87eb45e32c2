// Bodies of subjects read as backdrop (frame-bodies.ts, issue 40): in a tight frame a figure
// drawn as a group over the backdrop can cover most of the picture and meet three sides, as
// a sky does. Its own detail drawn on it (an eye, a nose) and the backdrop under it say it
// is a body, cut where it runs past the frame. Read on the sanitiser's parse, as the worker.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';

const BG = '<rect width="512" height="512" fill="#124"/>';
// A sleeping animal's body, far wider than the frame, sliced by the top edge: it meets the
// left, top and right sides and covers over half the picture, as a backdrop would.
const BODY = '<ellipse cx="256" cy="60" rx="460" ry="260" fill="#eee"/>';
const EYE =
  '<circle cx="300" cy="250" r="14" fill="#222"/><ellipse cx="180" cy="280" rx="30" ry="12" fill="#333"/>';

describe('bodies read as backdrop', () => {
  it('reads a figure body sliced by the top edge, with its eye and nose, as a cut subject', () => {
    const f = frameOf(`${BG}<g>${BODY}${EYE}</g>`);
    expect(f.cutRun).toBeGreaterThanOrEqual(MIN);
    expect(f.owners.background ?? 0).toBeLessThan(0.6);
  });

  it('leaves a bare band with nothing of its own drawn on it as backdrop', () => {
    // The same shape as a top-level band (a snowfield, a cloud bank) with nothing of its group.
    const f = frameOf(`${BG}${BODY}<g>${EYE}</g>`);
    expect(f.cutRun).toBe(0);
  });

  it('leaves the first backdrop (nothing under it) alone, and a body filling the frame up from the bottom a close-up', () => {
    // With no background under it, the body is the backdrop itself.
    expect(frameOf(`<g>${BODY}${EYE}</g>`).cutRun).toBe(0);
    // Filling the frame up from the bottom edge it runs past: a bust's shoulders, a close-up.
    const low = '<ellipse cx="256" cy="452" rx="460" ry="260" fill="#eee"/>';
    const eyeLow = '<circle cx="300" cy="250" r="14" fill="#222"/>';
    const f = frameOf(`${BG}<g>${low}${eyeLow}</g>`);
    expect(f.cutRun).toBe(0);
    expect(f.closeUpRun).toBeGreaterThanOrEqual(MIN);
  });

  it('reads a body sliced by the bottom and a side, not filling the frame, as cut', () => {
    // A bear's back and head in the upper-left of the frame, its body running off the
    // bottom and the right: it reaches under half-way up, so it is no close-up.
    const bear = '<ellipse cx="420" cy="560" rx="420" ry="300" fill="#eee"/>';
    const eye = '<circle cx="200" cy="400" r="14" fill="#222"/>';
    expect(frameOf(`${BG}<g>${bear}${eye}</g>`).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('leaves a body drawn edge to edge and hardly past the frame (a bell filling the width)', () => {
    const bell =
      '<path d="M-10 440 C -10 120 522 120 522 440 Z" fill="#fa3"/><circle cx="340" cy="220" r="40" fill="#fff"/>';
    expect(frameOf(`${BG}<g>${bell}</g>`).cutRun).toBe(0);
  });

  it('reads a body holding the whole frame, past all four sides, as a close-up (a macro)', () => {
    // model-c l19-a: a macro of a rose, its outer petal (a lens 660 × 600) running past every
    // side round the frame, its inner petals and dew drops drawn on it.
    const rose = (dy: number) =>
      `<g transform="translate(256 ${dy})"><path d="M-330 -40 Q-260 -300 0 -300 Q260 -300 330 -40 Q300 240 0 300 Q-300 240 -330 -40 Z" fill="#c41f30"/>` +
      '<path d="M-150 -60 Q0 -170 150 -60 Q90 40 0 50 Q-90 40 -150 -60 Z" fill="#d02a3a"/><circle cx="-170" cy="60" r="16" fill="#fdd"/></g>';
    const macro = frameOf(BG + rose(266));
    expect(macro.cutRun).toBe(0);
    expect(macro.closeUpRun).toBeGreaterThanOrEqual(MIN);
    // Moved up so its lower edge lies inside the frame, it is a body sliced by three sides.
    const up = frameOf(BG + rose(180));
    expect(up.cutRun).toBeGreaterThanOrEqual(MIN);
  });
});
