// The structural reading of the frame (issue 40): which shapes reaching the edge are
// subjects, which are light, background, bands, scenery or a close-up, and which text runs
// off the frame. Read on the sanitiser's parse, as the worker does.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { sanitizeSvg } from './sanitize.ts';

const BG = '<rect width="512" height="512" fill="#234"/>';
// A subject of varied shapes, as a group: body, head, eye (≈ 200 × 240 at the origin).
const figure = (x: number, y: number) =>
  `<g transform="translate(${x} ${y})"><path d="M20 100 C 20 40 180 40 180 100 L 190 240 L 10 240 Z" fill="#c84"/><circle cx="100" cy="60" r="50" fill="#fc9"/><circle cx="120" cy="50" r="6" fill="#000"/></g>`;

describe('frame structure', () => {
  it('gives a subject pushed off the frame a cut run, and a whole one none', () => {
    expect(frameOf(BG + figure(-100, 120)).cutRun).toBeGreaterThanOrEqual(MIN);
    expect(frameOf(BG + figure(150, 120)).subjectRun).toBe(0);
  });

  it('does not count light rays, glows, bokeh, noise or patterns as subjects', () => {
    const defs =
      '<defs><filter id="b"><feGaussianBlur stdDeviation="9"/></filter><filter id="n"><feTurbulence baseFrequency="0.8"/></filter><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse"><circle cx="10" cy="10" r="5"/></pattern><radialGradient id="g"><stop offset="0" stop-color="#ff0"/><stop offset="1" stop-color="#ff0" stop-opacity="0"/></radialGradient></defs>';
    const rays = '<polygon points="256,-10 -300,600 -200,600" fill="#fff" opacity="0.25"/>';
    const glow =
      '<circle cx="0" cy="0" r="200" fill="url(#g)"/><circle cx="512" cy="512" r="150" fill="#ff0" filter="url(#b)"/>';
    const bokeh = [0, 1, 2, 3, 4, 5, 6]
      .map((k) => `<circle cx="${k * 80}" cy="0" r="40" fill="#fc6"/>`)
      .join('');
    const f = frameOf(
      `${defs}${BG}${rays}${glow}<g>${bokeh}</g><rect x="-20" y="300" width="200" height="240" fill="url(#p)"/><rect x="300" y="-40" width="240" height="200" fill="#fff" filter="url(#n)"/>`,
    );
    expect(f.subjectRun).toBe(0);
    expect(f.cutRun).toBe(0);
    // Light does not hide what is under it: the background owns the frame.
    expect(f.owners.background).toBeGreaterThan(0.9);
  });

  it('does not count bands split by a stem, columns, drapes or a tabletop', () => {
    const f = frameOf(
      `<rect width="512" height="300" fill="#8cf"/><rect y="300" width="512" height="212" fill="#6a4"/>` +
        `<rect x="251" y="200" width="10" height="320" fill="#383"/>` +
        `<rect x="-20" y="0" width="80" height="420" fill="#eed"/><rect x="-8" y="0" width="76" height="24" fill="#cba"/>` +
        `<path d="M512 -2 L420 -2 Q 400 200 430 330 L512 330 Z" fill="#922"/>` +
        `<rect x="-10" y="380" width="330" height="40" fill="#854"/>`,
    );
    expect(f.subjectRun).toBe(0);
    expect(f.cutRun).toBe(0);
  });

  it('reads a bare rect wall sliced through the top and a side, short of the ground, as cut', () => {
    const sky =
      '<rect width="512" height="400" fill="#8cf"/><rect y="400" width="512" height="112" fill="#6a4"/>';
    // A house's wall drawn as a bare <rect>, running far past the top and the right side and
    // standing on the lawn above the bottom edge, with its door drawn on it: a building cut.
    const wall = '<rect x="200" y="-600" width="600" height="1000" fill="#bbb"/>';
    const door = '<rect x="320" y="260" width="80" height="140" fill="#642"/>';
    expect(frameOf(sky + wall + door).cutRun).toBeGreaterThanOrEqual(MIN);
    // Standing on the bottom edge in that corner, it is architecture (a skyline's last block).
    const block = '<rect x="200" y="-600" width="600" height="1200" fill="#bbb"/>';
    expect(frameOf(sky + block + door).cutRun).toBe(0);
  });

  it('reads a rect of a figure the top slices as the figure, not architecture', () => {
    const sky = '<rect width="512" height="512" fill="#a8c"/>';
    // A castle drawn as rects in one group: walls, two towers and a keep taller than the
    // picture, running 8 % of its height past the top; the castle stands clear of both sides
    // and short of the bottom, so the top slices it (h38tune, 7 Dec 2026).
    const castle = (top: number) =>
      `<g><rect x="170" y="250" width="180" height="115" fill="#bbb"/><rect x="150" y="180" width="40" height="185" fill="#aaa"/><rect x="330" y="180" width="40" height="185" fill="#aaa"/><rect x="225" y="${top}" width="70" height="${270 - top}" fill="#999"/></g>`;
    expect(frameOf(sky + castle(-24)).subjectRun).toBeGreaterThanOrEqual(MIN);
    // The same rect drawn up to the top (a hair past it) hangs there: a beam, not cut.
    expect(frameOf(sky + castle(-4)).subjectRun).toBe(0);
    // A bare rect body with its bands and window drawn on it, running 14 % past the top (a
    // rocket): a figure sliced there, where a bare wall a tenth past would be architecture.
    const rocket =
      '<rect x="205" y="-60" width="110" height="420" fill="#eee"/><rect x="205" y="60" width="110" height="24" fill="#c33"/><circle cx="260" cy="160" r="26" fill="#39c"/>';
    expect(frameOf(sky + rocket).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('reads a figure sliced far past the top as cut, though it grazes a side', () => {
    const bg = '<rect width="512" height="512" fill="#135"/>';
    // A logo's gear, a group running 43 % of its height past the top and 7 % past the left:
    // reaching deep into the picture from the left as a drape would, but sliced by the top.
    const gear =
      '<g><path d="M-36 -240 L496 -240 L496 320 L-36 320 Z" fill="#9bd"/><circle cx="260" cy="120" r="60" fill="#fff"/></g>';
    expect(frameOf(bg + gear).cutRun).toBeGreaterThanOrEqual(MIN);
    // A drape drawn up to the top and down the left side (a hair past both) stays scenery.
    const drape = '<g><path d="M-4 -4 L200 -4 Q 120 200 160 420 L-4 420 Z" fill="#922"/></g>';
    expect(frameOf(bg + drape).cutRun).toBe(0);
  });

  it('reads a lone shape drawn straight on the sky or sea as its scenery, not a cut subject', () => {
    const sky =
      '<rect width="512" height="300" fill="#8cf"/><rect y="300" width="512" height="212" fill="#2a6"/>';
    // A cloud streak and a foam crest, each one bare shape over its band, running off a side.
    const cloud = '<path d="M-60 60 C 0 20 90 20 130 60 C 90 95 0 95 -60 60 Z" fill="#fff"/>';
    const foam = '<path d="M400 380 C 460 360 520 360 580 380 L 580 395 L 400 395 Z" fill="#dfe"/>';
    const lone = frameOf(sky + cloud + foam);
    expect(lone.cutRun).toBe(0);
    expect(lone.subjectRun).toBe(0);
    // The same shape carrying a detail drawn on it (an eye on a body), or standing on a
    // subject rather than on the sky (a window on a wall), is still a subject cut.
    const eye = '<circle cx="60" cy="58" r="8" fill="#000"/>';
    expect(frameOf(sky + cloud + eye).cutRun).toBeGreaterThanOrEqual(MIN);
    const wall =
      '<path d="M-100 20 L 200 20 L 200 280 L -100 280 Z" fill="#b96"/><path d="M140 40 L 190 40 L 190 90 L 140 90 Z" fill="#fff"/>';
    const window = '<path d="M-20 120 L 40 120 L 40 180 L -20 180 Z" fill="#fea"/>';
    expect(frameOf(sky + wall + window).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('tells a subject drawn up to the frame (flush) from one running past it', () => {
    // A cloud and a rock shaped to the scene's edge by their author (openclipart's Ayers Rock
    // and sunflower): they meet the frame and stop there, so the frame slices nothing.
    const cloud = '<path d="M0 0 L120 0 C 110 40 60 70 0 60 Z" fill="#cde"/>';
    const rock = '<path d="M512 300 L380 330 C 360 400 420 470 512 480 Z" fill="#a54"/>';
    const flush = frameOf(BG + cloud + rock);
    expect(flush.subjectRun).toBe(0);
    expect(flush.owners.flush).toBeGreaterThan(0.05);
    // The same rock drawn a fifth of its width past the frame is cut by it.
    const past = '<path d="M540 300 L380 330 C 360 400 420 470 540 480 Z" fill="#a54"/>';
    expect(frameOf(BG + past).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('reports a subject filling the frame from the side it runs past as a close-up', () => {
    const bust = `<g transform="translate(6 90) scale(2.5)">${figure(0, 0).replace(/<g[^>]*>|<\/g>/g, '')}</g>`;
    const f = frameOf(BG + bust);
    expect(f.closeUpRun).toBeGreaterThanOrEqual(MIN);
    expect(f.cutRun).toBe(0);
  });

  it('tells half a subject sliced by a side from a bust running off the bottom', () => {
    // The bust above pushed off the left side instead: it fills the picture from there and
    // runs a ninth of its width past it — half a bulldog, not a portrait crop.
    const half = `<g transform="translate(-60 10) scale(2)">${figure(0, 0).replace(/<g[^>]*>|<\/g>/g, '')}</g>`;
    const f = frameOf(BG + half);
    expect(f.cutRun).toBeGreaterThanOrEqual(MIN);
    expect(f.closeUpRun).toBe(0);
    // A body as large as a backdrop (half the frame) meeting the frame on one side only is
    // a subject sliced there (a bison's hind half in a tight frame), not the background.
    const body = `<g><ellipse cx="420" cy="256" rx="300" ry="236" fill="#8b5a2b"/><circle cx="200" cy="200" r="20" fill="#000"/></g>`;
    const b = frameOf(BG + body);
    expect(b.cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('reads a stripe painted along a cut subject as the subject, not scenery splitting its run', () => {
    // model-f l08-b: a seaplane's nose past the right edge; a long thin stripe painted along
    // its fuselage is classed scenery on its own (it reaches deep in from the side it crosses)
    // and split the fuselage's 42 units on the frame into two runs under the threshold.
    const plane = (stripe: boolean) =>
      '<rect width="500" height="500" fill="#c5b3e6"/><g transform="translate(300 250) scale(1.2)">' +
      '<path d="M-10 50 Q0 35 30 33 L160 30 Q185 32 190 48 L192 60 Q160 68 10 64 Z" fill="#fff"/>' +
      (stripe ? '<rect x="20" y="44" width="170" height="8" fill="#c1121f"/>' : '') +
      '<path d="M0 50 L-30 20 L-22 52 Z" fill="#c1121f"/></g>';
    const striped = frameOf(plane(true), '0 0 500 500');
    expect(striped.cutRun).toBeGreaterThanOrEqual(MIN);
    expect(striped.cutRun).toBe(frameOf(plane(false), '0 0 500 500').cutRun);
    // The same stripe alone, with no subject under it, is still scenery reaching in.
    const alone = frameOf(
      '<rect width="500" height="500" fill="#c5b3e6"/><rect x="324" y="303" width="204" height="10" fill="#c1121f"/>',
      '0 0 500 500',
    );
    expect(alone.cutRun).toBe(0);
  });

  it('reads a subject sliced by the bottom and stopping a hair short of a side as cut, not scenery', () => {
    // model-i l07-b, blind: a manta ray a fifth off the bottom, its wingtip 2 units short of the
    // right edge. Meeting that side within the tolerance, it reached 91 % across from it: read
    // as scenery filling the picture from the side (a bank), which it never crosses.
    const sea = '<rect width="500" height="500" fill="#2ab"/>';
    const manta =
      '<g transform="translate(30 300) scale(1.2)"><path d="M200 60 C 170 60 150 75 130 90 C 90 100 40 102 10 128 C 60 134 110 138 140 152 C 160 172 180 188 200 188 C 220 188 240 172 260 152 C 290 138 340 134 390 128 C 360 102 310 100 270 90 C 250 75 230 60 200 60 Z" fill="#212b36"/>' +
      '<circle cx="176" cy="92" r="3" fill="#9ab"/></g>';
    expect(frameOf(sea + manta, '0 0 500 500').cutRun).toBeGreaterThanOrEqual(MIN);
    // A bank drawn from the left edge itself and on past the bottom stays scenery.
    const bank = '<path d="M0 250 Q150 300 300 560 L0 560 Z" fill="#463"/>';
    expect(frameOf(sea + bank, '0 0 500 500').cutRun).toBe(0);
  });

  it('finds text running off the frame, also over a pattern, and not text that fits', () => {
    const pattern =
      '<defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse"><circle cx="10" cy="10" r="5"/></pattern></defs><rect width="512" height="512" fill="url(#p)"/>';
    const off = frameOf(`${pattern}<text x="300" y="80" font-size="40">The Secret Garden</text>`);
    expect(off.textsOff).toEqual(['The Secret Garden']);
    const anchored = frameOf(
      `<text x="500" y="80" font-size="30" text-anchor="middle">Harbour Market</text>`,
    );
    expect(anchored.textsOff).toEqual(['Harbour Market']);
    const lines = frameOf(
      `<text font-size="20"><tspan x="20" y="40">fits here</tspan><tspan x="460" y="70">runs off the edge</tspan></text>`,
    );
    expect(lines.textsOff).toEqual(['runs off the edge']);
    const fits = frameOf(
      `<text x="256" y="80" font-size="36" text-anchor="middle">The Lighthouse Keeper</text>`,
    );
    expect(fits.textsOff).toEqual([]);
  });

  it('survives hostile input: deep nesting, a self-referencing <use>, no viewBox', () => {
    const deep = `${'<g>'.repeat(60)}<rect x="-50" width="100" height="100"/>${'</g>'.repeat(60)}`;
    expect(frameOf(deep).points).toBe(512);
    const loop = frameOf(
      '<g id="a"><use href="#a"/><rect x="-40" y="200" width="100" height="80"/></g>',
    );
    expect(loop.points).toBe(512);
    const bare = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><circle r="40"/></svg>').code!
      .frame!;
    expect(bare.points).toBe(512);
  });
});
