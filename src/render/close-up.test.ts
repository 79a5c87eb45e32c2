// The close-up reading (issue 40): a subject drawn up to the bottom edge — a bust, a neck
// running off the lower corner — is a close-up; a scene standing on its ground, a subject
// standing inside the frame, a plate or a sitting animal rounded at the edge are not. Read on
// the sanitiser's parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './sanitize.ts';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${body}</svg>`;
const reading = (body: string) => sanitizeSvg(svg(body)).code!.frame!.closeUpShape;
const BG = '<rect width="512" height="512" fill="#234"/>';
// Shoulders widening to the bottom edge (drawn up to it, not past), a neck, a head, an eye.
const bust = (dy = 0) =>
  `<g transform="translate(0 ${dy})"><path d="M96 512 C 110 400 180 380 220 370 L 220 300 L 292 300 L 292 370 C 332 380 402 400 416 512 Z" fill="#ccb"/><circle cx="256" cy="220" r="95" fill="#ccb"/><circle cx="290" cy="210" r="10" fill="#000"/></g>`;

describe('close-up reading', () => {
  it('reads a bust drawn up to the bottom edge as a close-up', () => {
    expect(reading(BG + bust())).toBe('bust');
    // The same frame reading says nothing of it: nothing runs past the frame.
    expect(sanitizeSvg(svg(BG + bust())).code!.frame!.closeUpRun).toBe(0);
  });

  it('reads a neck running off the lower right corner as a close-up', () => {
    // A head high in the frame and a neck widening down to the right side and the bottom.
    const head = `<g><path d="M150 120 C 220 60 320 90 330 170 L 512 330 L 512 512 L 430 512 C 380 420 300 330 230 300 C 170 280 120 190 150 120 Z" fill="#111"/><circle cx="200" cy="160" r="8" fill="#eee"/></g>`;
    expect(reading(BG + head)).toBe('bust');
  });

  it('does not read a subject standing inside the frame, or one reaching the top', () => {
    expect(reading(BG + bust(-40))).toBeNull();
    const tall = `<g><rect x="180" y="0" width="150" height="512" fill="#ccb"/><circle cx="256" cy="200" r="40" fill="#000"/></g>`;
    expect(reading(BG + tall)).toBeNull();
  });

  it('does not read a scene standing on its ground as a close-up', () => {
    // Sky, a ground band across the bottom, a tree and a house standing on it.
    const ground = '<rect y="380" width="512" height="132" fill="#4a4"/>';
    const tree =
      '<g><rect x="110" y="250" width="30" height="262" fill="#642"/><circle cx="125" cy="220" r="70" fill="#383"/></g>';
    const house =
      '<g><rect x="260" y="300" width="170" height="212" fill="#c96"/><path d="M250 300 L345 220 L440 300 Z" fill="#933"/></g>';
    expect(reading(BG + ground + tree + house)).toBeNull();
  });

  it('reads a small subject on the bottom edge as no close-up', () => {
    const small = `<g transform="translate(200 362) scale(0.3)">${bust().replace(/<g[^>]*>|<\/g>/g, '')}</g>`;
    expect(reading(BG + small)).toBeNull();
  });

  it('tells a plate or a sitting animal, widest inside the frame, from a bust', () => {
    // A plate sliced by the bottom edge below its middle, with a cake on it.
    const plate = `<g><ellipse cx="256" cy="360" rx="230" ry="190" fill="#eee"/><path d="M170 300 L340 300 L320 380 L190 380 Z" fill="#a63"/></g>`;
    expect(reading(BG + plate)).toBe('round');
    // A rabbit sitting on the bottom edge: its body is rounded toward the edge.
    const rabbit = `<g><path d="M130 512 C 10 480 40 260 250 240 C 470 230 500 480 390 512 Z" fill="#fbe"/><ellipse cx="160" cy="150" rx="30" ry="110" fill="#fbe"/><circle cx="150" cy="300" r="8" fill="#000"/></g>`;
    const r = sanitizeSvg(svg(BG + rabbit)).code!.frame!;
    expect(r.closeUpShape).toBe('round');
  });
});
