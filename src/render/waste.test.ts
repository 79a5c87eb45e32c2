// Waste as the sanitiser measures it on its one parse (waste.ts, fed by the overdraw walk):
// each figure counts what it names and leaves visible marks alone.
import { describe, expect, it } from 'vitest';
import { OVERDRAW_MIN_ELEMENTS } from './overdraw.ts';
import { sanitizeSvg } from './sanitize.ts';

// Twenty empty groups: drawings of fewer elements are not measured (nothing can pile up).
const PAD = '<g/>'.repeat(OVERDRAW_MIN_ELEMENTS);
const waste = (body: string) => {
  const s = sanitizeSvg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">${body}${PAD}</svg>`,
  );
  if (!s.ok) throw new Error(s.error.message);
  return s.code.waste!;
};
const times = (n: number, f: (k: number) => string) =>
  Array.from({ length: n }, (_, k) => f(k)).join('');
const dot = (x: number, y: number, extra = '') =>
  `<circle cx="${x}" cy="${y}" r="2" fill="#c33"${extra}/>`;

describe('waste in CodeStats', () => {
  it('counts nothing in a drawing of distinct visible marks', () => {
    const w = waste(times(50, (k) => dot(5 + (k % 10) * 9, 5 + Math.floor(k / 10) * 9)));
    expect(w).toMatchObject({ noInk: 0, duplicates: 0, covered: 0, tangledStrokes: 0 });
  });

  it('counts elements that put no ink in the picture, a hidden group with all it holds', () => {
    const w = waste(
      `${dot(10, 10, ' opacity="0"')}${dot(20, 10, ' fill-opacity="0"')}<rect width="0" height="5"/>` +
        `${dot(300, 300)}<path d="M10 10h20" fill="none"/>` +
        `<g style="display:none">${times(5, (k) => dot(k * 10, 50))}</g>${dot(50, 50)}`,
    );
    // opacity 0, fill-opacity 0, zero area, off the canvas, no paint; the group and its 5.
    expect(w.noInk).toBe(5 + 6);
  });

  it('counts exact copies at the same place, not the same shape moved or in another paint', () => {
    expect(waste(times(30, () => dot(50, 50))).duplicates).toBe(29);
    expect(waste(times(30, (k) => dot(10 + k * 2, 50))).duplicates).toBe(0);
    const fillThenOutline = `${dot(50, 50)}<circle cx="50" cy="50" r="2" fill="none" stroke="#000"/>`;
    expect(waste(fillThenOutline).duplicates).toBe(0);
  });

  it('counts shapes under a later opaque shape, not under a gradient or a translucent one', () => {
    const junk = times(12, (k) => dot(10 + k * 6, 40));
    expect(waste(`${junk}<rect width="100" height="100" fill="#fff"/>`).covered).toBe(12);
    expect(waste(`${junk}<rect width="100" height="100" fill="#fff" opacity="0.5"/>`).covered).toBe(
      0,
    );
    expect(
      waste(
        `<defs><radialGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-opacity="0"/></radialGradient></defs>${junk}<rect width="100" height="100" fill="url(#g)"/>`,
      ).covered,
    ).toBe(0);
    // Drawn over the rect they are seen.
    expect(waste(`<rect width="100" height="100" fill="#fff"/>${junk}`).covered).toBe(0);
  });

  it('counts strokes piled across each other, not outlines side by side', () => {
    const windows = times(40, (k) => {
      const [x, y] = [2 + (k % 8) * 12, 2 + Math.floor(k / 8) * 12];
      return `<rect x="${x}" y="${y}" width="8" height="8" fill="none" stroke="#000"/>`;
    });
    const w = waste(windows);
    expect(w.tangledStrokes).toBe(0);
    expect(w.strokesApart).toBe(40);
    const scribble = times(
      40,
      (k) =>
        `<path d="M${(k * 37) % 100} ${(k * 53) % 100} Q ${(k * 71) % 100} ${(k * 13) % 100} ${(k * 29) % 100} ${(k * 83) % 100}" fill="none" stroke="#000"/>`,
    );
    expect(waste(scribble).tangledStrokes).toBeGreaterThan(30);
  });

  it('counts a line doubling back as jagged, a smooth curve as not; <use> copies once', () => {
    const zigzag = `<path d="M10 10${times(100, (k) => (k % 2 ? 'L30 12' : 'L10 14'))}" fill="none" stroke="#000"/>`;
    // Every vertex turns back except the first (down, then right and up).
    expect(waste(zigzag).jaggedTurns).toBe(98);
    const curve = `<path d="M10 50${times(50, () => ' c5 -10 10 -10 15 0 s10 10 15 0')}" fill="none" stroke="#000"/>`;
    expect(waste(curve).jaggedTurns).toBe(0);
    const star = '<polygon id="s" points="5,0 6,4 10,4 7,6 8,10 5,7 2,10 3,6 0,4 4,4"/>';
    const one = waste(`<defs>${star}</defs><use href="#s"/>`).jaggedTurns;
    expect(one).toBeGreaterThan(0);
    const many = `<defs>${star}</defs>${times(60, (k) => `<use href="#s" x="${(k % 8) * 12}" y="${Math.floor(k / 8) * 12}"/>`)}`;
    expect(waste(many).jaggedTurns).toBe(one);
  });

  it('counts the segments it saw and the segments of covered shapes', () => {
    const long = `<path d="M0 0${times(300, (k) => ` L${k % 100} ${(k * 7) % 100}`)}" fill="#0a0"/>`;
    const w = waste(`${long}<rect width="100" height="100" fill="#fff"/>`);
    expect(w.segmentsSeen).toBe(300); // a rect has no path segments (as the walker counts)
    expect(w.coveredSegments).toBe(300);
  });
});
