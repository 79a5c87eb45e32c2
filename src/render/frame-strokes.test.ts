// Line-art subjects cut by the frame (frame-strokes.ts, issue 40): a figure drawn in strokes
// only is read from its own geometry — a part whose closed outline runs past the frame is cut
// — and what is drawn in strokes up to the frame on purpose (rays, a border, rain, cables,
// grass, an arrow, a stroked tiling) is not. Read on the sanitiser's parse.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';

const frame = (body: string) => frameOf(body, '0 0 500 500');
const WHITE = '<rect width="500" height="500" fill="#fff"/>';
const LINE = 'fill="none" stroke="#222" stroke-width="8" stroke-linecap="round"';
/** A line-art bicycle whose rear wheel is centred at `rx` (radius 100). */
const bicycle = (rx: number) =>
  `<g ${LINE}><circle cx="${rx}" cy="330" r="100"/><circle cx="330" cy="330" r="100"/>` +
  `<path d="M${rx} 330 L${rx + 100} 200 L290 200 L330 330 M${rx + 100} 200 L200 330 L290 200 M200 330 L${rx} 330 M${rx + 90} 180 L${rx + 120} 180 M290 200 L280 160 L320 160"/>` +
  '<circle cx="200" cy="330" r="14"/></g>';
const cut = (body: string) => {
  const f = frame(body);
  return (f.lineArt?.run ?? 0) >= MIN;
};

describe('line-art subjects cut by the frame', () => {
  it('reads a line-art bicycle with its rear wheel 60 units past the left edge as cut', () => {
    const f = frame(WHITE + bicycle(40));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['left']);
    expect(f.lineArt?.outlines).toBe(1);
    // The filled reading sees only the white ground.
    expect(f.subjectRun).toBe(0);
  });

  it('leaves the same bicycle whole', () => {
    expect(frame(WHITE + bicycle(150)).lineArt).toBeUndefined();
  });

  it('does not read rays from a corner as cut', () => {
    const rays = [0, 15, 30, 45, 60, 75, 90]
      .map((d) => {
        const t = (d * Math.PI) / 180;
        return `<line x1="0" y1="0" x2="${700 * Math.cos(t)}" y2="${700 * Math.sin(t)}"/>`;
      })
      .join('');
    expect(cut(`${WHITE}<g stroke="#fc0" stroke-width="10">${rays}</g>`)).toBe(false);
    // …nor rays drawn as thin closed wedges.
    const wedges = [10, 40, 70]
      .map((d) => {
        const t = (d * Math.PI) / 180;
        const u = ((d + 4) * Math.PI) / 180;
        return `<polygon points="0,0 ${700 * Math.cos(t)},${700 * Math.sin(t)} ${700 * Math.cos(u)},${700 * Math.sin(u)}"/>`;
      })
      .join('');
    expect(cut(`${WHITE}<g fill="none" stroke="#fc0" stroke-width="4">${wedges}</g>`)).toBe(false);
  });

  it('does not read a stroked border round the frame as cut', () => {
    const border =
      '<g fill="none" stroke="#333"><rect x="-6" y="-6" width="512" height="512" stroke-width="24"/><rect x="14" y="14" width="472" height="472" stroke-width="3"/></g>';
    expect(cut(WHITE + border + bicycle(150))).toBe(false);
  });

  it('does not read rain streaks as cut', () => {
    let rain = '';
    for (let i = 0; i < 30; i++) {
      const x = (i * 97) % 520;
      const y = (i * 61) % 520;
      rain += `<line x1="${x}" y1="${y - 30}" x2="${x - 8}" y2="${y + 10}"/>`;
    }
    expect(cut(`${WHITE}<g stroke="#58a" stroke-width="3">${rain}</g>`)).toBe(false);
  });

  it('does not read a cable spanning the picture as cut', () => {
    const cable =
      '<g fill="none" stroke="#111" stroke-width="4"><path d="M-20 120 Q250 220 520 110"/><path d="M-20 140 Q250 240 520 130"/><circle cx="250" cy="172" r="6"/></g>';
    expect(cut(WHITE + cable)).toBe(false);
  });

  it('does not read grass blades along the bottom as cut', () => {
    let blades = '';
    for (let x = 0; x < 500; x += 18)
      blades += `<path d="M${x} 512 L${x + 9} ${430 + (x % 40)} L${x + 18} 512 Z"/>`;
    expect(cut(`${WHITE}<g fill="none" stroke="#3a3" stroke-width="3">${blades}</g>`)).toBe(false);
    // A tuft of a few blades of varied heights at one corner.
    const tuft =
      '<g fill="none" stroke="#3a3" stroke-width="3"><path d="M10 515 L22 420 L34 515 Z"/><path d="M30 515 L40 450 L50 515 Z"/><path d="M-5 515 L5 470 L15 515 Z"/></g>';
    expect(cut(WHITE + tuft)).toBe(false);
  });

  it("does not read a diagram's arrow to the edge as cut", () => {
    const diagram =
      `<g ${LINE}><rect x="30" y="200" width="120" height="100"/><line x1="150" y1="250" x2="500" y2="250"/>` +
      '<polygon points="480,235 504,250 480,265"/></g>';
    expect(cut(WHITE + diagram)).toBe(false);
  });

  it('does not read a stroked tiling running off the frame as cut', () => {
    let tiles = '';
    for (let x = -40; x < 540; x += 80)
      for (let y = -40; y < 540; y += 80) tiles += `<circle cx="${x}" cy="${y}" r="30"/>`;
    expect(cut(`${WHITE}<g fill="none" stroke="#ccc" stroke-width="3">${tiles}</g>`)).toBe(false);
    // …nor one ring repeated along one side (a chain's links).
    let links = '';
    for (let x = 60; x < 460; x += 90) links += `<ellipse cx="${x}" cy="-10" rx="40" ry="30"/>`;
    expect(cut(`${WHITE}<g fill="none" stroke="#888" stroke-width="6">${links}</g>`)).toBe(false);
  });

  it('reads a figure written as ungrouped top-level strokes as one figure', () => {
    // The same bicycle with no <g>: every element carries the stroke, each its own part.
    const loose = (rx: number) =>
      bicycle(rx)
        .replace(/^<g [^>]*>|<\/g>$/g, '')
        .replace(/<(circle|path) /g, `<$1 ${LINE} `);
    expect(cut(WHITE + loose(40))).toBe(true);
    expect(frame(WHITE + loose(150)).lineArt).toBeUndefined();
    // A filled shape between the strokes ends the stretch: the wheel past the edge is then a
    // lone outline (it touches only the frame path, drawn after the fill).
    const split = loose(40).replace('<path ', '<rect width="1" height="1" fill="#eee"/><path ');
    expect(cut(WHITE + split)).toBe(false);
    // Outlines that do not touch are separate ornaments, each a lone outline.
    const apart = `<circle cx="0" cy="120" r="60" ${LINE}/><circle cx="500" cy="400" r="60" ${LINE}/>`;
    expect(cut(WHITE + apart)).toBe(false);
  });

  it('does not count an outline drawn with no stroke width', () => {
    // The rear wheel past the edge is there in the markup but not on the picture.
    expect(
      cut(WHITE + bicycle(40).replace('<circle cx="40"', '<circle stroke-width="0" cx="40"')),
    ).toBe(false);
    expect(cut(WHITE + bicycle(40).replace('<g ', '<g style="stroke-width:0px" '))).toBe(false);
    // A negative width is ignored by renderers (the group's 8 stands): still cut.
    expect(
      cut(WHITE + bicycle(40).replace('<circle cx="40"', '<circle stroke-width="-2" cx="40"')),
    ).toBe(true);
  });

  it('does not read a lone outline, translucent strokes or clipped strokes as a figure', () => {
    expect(cut(`${WHITE}<circle cx="0" cy="250" r="100" ${LINE}/>`)).toBe(false);
    expect(cut(WHITE + bicycle(40).replace('<g ', '<g stroke-opacity="0.3" '))).toBe(false);
    expect(
      cut(
        `${WHITE}<defs><clipPath id="c"><rect width="500" height="500"/></clipPath></defs>` +
          bicycle(40).replace('<g ', '<g clip-path="url(#c)" '),
      ),
    ).toBe(false);
  });

  it('reads a figure cut through its open lines: a stick figure whose arm runs off the side', () => {
    // model-e l07-b, blind: a goalkeeper drawn in strokes, the head a circle, the arms and
    // gloves open lines running off the right edge. No closed outline is cut.
    const keeper = (dx: number) =>
      `<g ${LINE} transform="translate(${dx} 0)"><circle cx="300" cy="150" r="30"/>` +
      '<path d="M300 180 L300 320 M300 320 L260 430 M300 320 L340 430"/>' +
      '<path d="M300 210 L420 150 L560 120 M300 210 L230 260"/></g>';
    const f = frame(WHITE + keeper(0));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['right']);
    // Drawn 70 units to the left, the arm ends inside the frame: whole.
    expect(frame(WHITE + keeper(-70)).lineArt).toBeUndefined();
    // Open lines alone are rays, rain or hatching, never a figure: no closed outline, no cut.
    expect(cut(WHITE + keeper(0).replace('<circle cx="300" cy="150" r="30"/>', ''))).toBe(false);
    // A line-art landscape: a mountain line running off the left beside a sun and two birds.
    // The line meets no closed outline: scenery, not a limb.
    const hills =
      `<g ${LINE}><circle cx="380" cy="110" r="40"/><path d="M-80 380 L60 250 L160 330 L260 220 L380 380"/>` +
      '<path d="M100 120 l10 8 l10 -8 M140 100 l8 6 l8 -6"/></g>';
    expect(cut(WHITE + hills)).toBe(false);
  });

  it('reads a slender outline lying along the side it passes as a body, one entering it as a streak', () => {
    // model-f s04-a: a line-art trumpet whose bell rim (an ellipse 20 wide, 124 tall) stands
    // half past the right edge; the figure runs only 5 % of its length past.
    const trumpet = (dx: number) =>
      `<g ${LINE} transform="translate(${dx} 0)"><path d="M40 246 H310 M40 260 H310"/>` +
      '<rect x="200" y="180" width="24" height="120" rx="4"/><rect x="236" y="180" width="24" height="120" rx="4"/>' +
      '<path d="M310 246 L400 232 Q460 200 500 150 L500 360 Q460 300 400 272 L310 260"/>' +
      '<ellipse cx="500" cy="255" rx="18" ry="105"/></g>';
    const f = frame(WHITE + trumpet(0));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['right']);
    expect(frame(WHITE + trumpet(-40)).lineArt).toBeUndefined();
    // The same slender outline turned to enter the side lengthwise is a beam: not cut.
    const beam = `<g ${LINE}><circle cx="250" cy="250" r="40"/><rect x="280" y="240" width="260" height="20"/></g>`;
    expect(cut(WHITE + beam)).toBe(false);
  });

  it("reads a figure whose slender body runs off lengthwise as cut through it (a drill's body)", () => {
    // model-g s05-a: a line-art drill whose long body (0.32 as tall as long) runs 60 units
    // off the left; the round detail drawn on it and the handle stay inside.
    const drill = (dx: number) =>
      `<g ${LINE} transform="translate(${dx} 60)"><path d="M60 90 H330 Q360 90 360 120 V160 Q360 185 330 185 H60 Z"/>` +
      '<path d="M360 110 H400 V165 H360 M400 125 H470 M400 150 H470"/><path d="M200 185 L215 300 H285 L270 185"/>' +
      '<rect x="180" y="300" width="140" height="70" rx="10"/><circle cx="130" cy="137" r="22"/></g>';
    const f = frame(WHITE + drill(-120));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['left']);
    expect(frame(WHITE + drill(0)).lineArt).toBeUndefined();
  });

  it('reads a figure running off by a share of the frame though not of its own long extent', () => {
    // model-g s02-b: a kangaroo whose head and feet run 30 units (6 % of the frame) past the
    // right edge, 7 % of its long body with the tail.
    const roo = (dx: number) =>
      `<g ${LINE} transform="translate(${dx} 110)"><path d="M30 120 Q10 70 60 45 Q110 25 150 55 Q175 80 160 120 Q145 150 95 152 Q55 152 30 120 Z"/>` +
      '<path d="M140 55 Q165 15 195 20 Q215 28 205 48 Q190 65 160 70"/><path d="M35 118 Q-20 145 -200 180"/>' +
      '<path d="M110 148 L150 180 L205 186"/></g>';
    const f = frame(WHITE + roo(315));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['right']);
    // Four units past: nothing a viewer would call cut.
    expect(frame(WHITE + roo(289)).lineArt).toBeUndefined();
  });

  it('tells a line-art bust, widest at the bottom edge, from a figure narrowing into it', () => {
    // model-f s08-a: a seahorse filling 69 % of the height, its tail curling off the bottom.
    const seahorse =
      `<g ${LINE} transform="translate(150 175) scale(1.9)"><path d="M60 20 Q80 0 100 12 L140 10 L140 22 L100 30 Q95 45 85 55"/>` +
      '<circle cx="88" cy="20" r="3"/><path d="M60 20 Q40 60 55 100 Q70 140 100 150 Q120 160 110 190 Q100 215 75 210 Q55 205 62 190 Q70 178 82 186"/>' +
      '<path d="M85 55 Q110 80 105 115 Q100 140 100 150"/><path d="M55 90 Q30 95 35 115 Q50 110 58 105"/></g>';
    const f = frame(WHITE + seahorse);
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['bottom']);
    // A bust in outline: a head over shoulders that widen to the bottom edge and run past it.
    const bust =
      `<g ${LINE}><circle cx="250" cy="190" r="85"/><circle cx="220" cy="180" r="8"/><circle cx="280" cy="180" r="8"/>` +
      '<path d="M215 272 L210 330 Q90 350 40 540 M285 272 L290 330 Q410 350 460 540"/></g>';
    expect(frame(WHITE + bust).lineArt).toBeUndefined();
  });

  it('reads a filled figure cut through a thick stroked limb, not through a cord or a string', () => {
    // model-e s05-b, blind: a flamingo with a filled body, its neck a 16-unit stroke running
    // off the top to a head drawn wholly past it.
    const flamingo = (dy: number, neck = 13) =>
      `<g transform="translate(-60 ${dy}) scale(1.25)"><ellipse cx="262" cy="232" rx="62" ry="36" fill="#ff8fab"/>` +
      `<path d="M215 225 C190 200 170 160 190 120 C205 85 240 70 250 60" stroke="#ff8fab" stroke-width="${neck}" fill="none"/>` +
      '<circle cx="252" cy="58" r="17" fill="#ff8fab"/><path d="M270 262 L290 330 L272 345" stroke="#d6336c" stroke-width="4" fill="none"/></g>';
    const sky = '<rect width="500" height="500" fill="#8cf"/>';
    const f = frame(sky + flamingo(-110));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['top']);
    // Drawn 100 units lower, the head is in the picture: whole.
    expect(frame(sky + flamingo(10)).lineArt).toBeUndefined();
    // A pendant lamp whose 3-unit cord runs off the top to a ceiling past it: a cord.
    const lamp =
      '<g><path d="M250 -60 V200" stroke="#333" stroke-width="3" fill="none"/><path d="M190 260 L220 200 H280 L310 260 Z" fill="#fc6"/><circle cx="250" cy="-60" r="10" fill="#333"/></g>';
    expect(frame(sky + lamp).lineArt).toBeUndefined();
    // The same cord 14 units wide is read as a limb (and crosses the side over its width only).
    expect(
      frame(sky + lamp.replace('stroke-width="3"', 'stroke-width="14"')).lineArt?.sides,
    ).toEqual(['top']);
  });

  it("reads a large figure's small outline cut where the figure itself runs past the side", () => {
    // model-k s07-b, blind: a line-art heron whose head (an outline under a tenth of its
    // height with the long neck and legs: a detail of the figure by size) and bill run off
    // the top; the neck stops just inside.
    const heron = (headY: number) =>
      `<g ${LINE}><ellipse cx="250" cy="300" rx="70" ry="40"/>` +
      `<path d="M215 285 Q190 150 228 ${headY + 14} M240 280 Q215 150 244 ${headY + 14}"/>` +
      `<ellipse cx="236" cy="${headY}" rx="22" ry="14"/><path d="M256 ${headY - 2} L320 ${headY + 4} L256 ${headY + 6}"/>` +
      '<path d="M240 338 L235 470 M260 338 L265 470 M220 470 L250 470 M255 470 L285 470"/></g>';
    const f = frame(WHITE + heron(-10));
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['top']);
    // The head drawn up to the edge, its crown 4 units past: the figure is whole.
    expect(frame(WHITE + heron(10)).lineArt).toBeUndefined();
    // model-k s03-a, blind: a line-art bulldozer pushed 110 units off the left, its blade
    // (open lines) wholly past the edge, its engine box and track only a few units past, and
    // the track's rear wheel (small against the machine) cut through.
    const dozer = (dx: number) =>
      `<g ${LINE} transform="translate(${dx} 130)"><path d="M40 200 L20 120 L60 110 L70 190 M70 150 L120 140"/>` +
      '<rect x="110" y="90" width="170" height="70" rx="6"/><path d="M200 90 L210 20 L280 20 L290 90"/>' +
      '<rect x="100" y="170" width="220" height="50" rx="25"/><circle cx="125" cy="195" r="17"/>' +
      '<circle cx="295" cy="195" r="17"/><circle cx="210" cy="195" r="10"/></g>';
    const d = frame(WHITE + dozer(-120));
    expect(d.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(d.lineArt?.sides).toEqual(['left']);
    expect(frame(WHITE + dozer(0)).lineArt).toBeUndefined();
  });

  it('reads line art styled by class from a <style> sheet', () => {
    // model-j s05-b, blind: a toucan whose every path takes `fill: none` and its stroke from
    // a class rule, the beak running a sixth of its length off the right edge. Read without
    // the sheet, its outlines were shapes filled black.
    const sheet =
      '<style>.ln { fill: none; stroke: #203040; stroke-width: 4; } .sky { fill: #f7f4ec }</style>';
    const toucan = (dx: number) =>
      `<g transform="translate(${dx} 110) scale(1.25)"><path class="ln" d="M60 40 Q20 60 30 140 Q40 210 80 225 L110 215 Q130 150 115 70 Q100 35 60 40 Z"/>` +
      '<path class="ln" d="M60 60 Q150 10 230 60 Q170 110 78 100 Z"/><circle class="ln" cx="66" cy="66" r="8"/>' +
      '<path class="ln" d="M80 215 L70 255 M95 218 L95 255"/></g>';
    const f = frame(`${sheet}<rect class="sky" width="500" height="500"/>${toucan(250)}`);
    expect(f.lineArt?.run).toBeGreaterThanOrEqual(MIN);
    expect(f.lineArt?.sides).toEqual(['right']);
    expect(f.subjectRun).toBe(0);
    // The same toucan 100 units to the left is whole.
    expect(
      frame(`${sheet}<rect class="sky" width="500" height="500"/>${toucan(150)}`).lineArt,
    ).toBeUndefined();
  });
});
