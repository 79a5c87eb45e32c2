// Text running off the frame, laid out in the pinned fonts (issue 40): the forms model-written
// posters and diagrams use — sheet classes with the font shorthand, bold capitals, letter-
// spacing, em sizes, labels copied with <use> — and what must not count: a line ending at
// the frame with its side bearing, a line wholly outside, text in a pattern tile.
import { describe, expect, it } from 'vitest';
import { frameOf } from '../../test/support/frame-reading.ts';

const frame = (body: string) => frameOf(body, '0 0 500 500');

describe('text off the frame', () => {
  it('reads the font from a <style> class and its font shorthand', () => {
    const style =
      "<style>.lbl{font:bold 15px 'DejaVu Sans',sans-serif} .title{font-family:Arial;font-size:64px;font-weight:bold;letter-spacing:6px}</style>";
    // Neptune at 15 px bold is 68 wide: from x 445 it ends at 513, 0.9 em past the frame.
    const label = frame(`${style}<text x="445" y="300" class="lbl">Neptune</text>`);
    expect(label.textsOff).toEqual(['Neptune']);
    // The sheet beats the presentation attribute (CSS cascade): still 15 px, still cut.
    expect(
      frame(`${style}<text x="445" y="300" class="lbl" font-size="8">Neptune</text>`).textsOff,
    ).toEqual(['Neptune']);
    expect(
      frame(`${style}<text x="60" y="110" class="title">NIGHT CITY LIGHTS</text>`).textsOff,
    ).toEqual(['NIGHT CITY LIGHTS']);
    expect(frame(`${style}<text x="40" y="300" class="lbl">Neptune</text>`).textsOff).toEqual([]);
  });

  it('reads a numeric weight in the font shorthand as the weight, not the size', () => {
    // model-m l01-b: `font: 600 16px …` read as 600 px flagged six labels lying inside.
    const style = '<style>.lbl { font: 600 16px "Helvetica Neue", Arial, sans-serif }</style>';
    expect(frame(`${style}<text class="lbl" x="386" y="478">Mycelium</text>`).textsOff).toEqual([]);
    // The same label at 16 px bold from x 440 ends past the frame.
    expect(frame(`${style}<text class="lbl" x="440" y="478">Mycelium</text>`).textsOff).toEqual([
      'Mycelium',
    ]);
  });

  it('lays bold capitals and serif titles at their real width', () => {
    // 0.52 em a character called these 390 and 399 wide: inside the frame. They are 532 and 482.
    const poster = frame(
      `<text x="250" y="92" text-anchor="middle" font-family="Impact, sans-serif" font-weight="bold" font-size="50">SUMMER FESTIVAL</text>`,
    );
    expect(poster.textsOff).toEqual(['SUMMER FESTIVAL']);
    const cafe = frame(
      `<text x="70" y="150" font-family="DejaVu Serif, serif" font-size="64" font-weight="bold">Café Lumière</text>`,
    );
    expect(cafe.textsOff).toEqual(['Café Lumière']);
    // Half the share of it the frame hides is past each side of a centred title.
    expect(poster.textHidden).toBeGreaterThan(0.03);
    expect(poster.textHidden).toBeLessThan(0.1);
  });

  it('counts letter-spacing, em sizes from the group, tspans and dx', () => {
    expect(
      frame(`<text x="300" y="50" font-size="22" letter-spacing="12">LIVE MUSIC</text>`).textsOff,
    ).toEqual(['LIVE MUSIC']);
    expect(
      frame(`<g font-size="20"><text x="380" y="50" font-size="2em">Harvest</text></g>`).textsOff,
    ).toEqual(['Harvest']);
    expect(
      frame(
        `<text x="340" y="50" font-size="20">Open <tspan font-size="40" font-weight="bold">DAILY</tspan></text>`,
      ).textsOff,
    ).toEqual(['Open DAILY']);
    expect(
      frame(`<text x="300" y="50" font-size="20">Open <tspan dx="120">late</tspan></text>`)
        .textsOff,
    ).toEqual(['Open late']);
  });

  it('follows <use> copies of a label, and a symbol', () => {
    const defs =
      '<defs><g id="pill"><text x="75" y="2" text-anchor="middle" font-size="24" font-weight="bold">SUN 14</text></g><symbol id="tag"><text x="0" y="20" font-size="20">Label here</text></symbol></defs>';
    expect(frame(`${defs}<use href="#pill" x="30" y="425"/>`).textsOff).toEqual([]);
    expect(frame(`${defs}<use href="#pill" x="420" y="425"/>`).textsOff).toEqual(['SUN 14']);
    expect(frame(`${defs}<use href="#tag" x="430" y="100"/>`).textsOff).toEqual(['Label here']);
    // Self-reference and a cycle end without hanging.
    const loop = '<g id="a"><text x="480" y="40">loop</text><use href="#a" x="5"/></g>';
    expect(frame(loop).textsOff.length).toBeLessThan(10);
  });

  it('does not call a line cut that only touches the frame, lies outside it, or tiles a pattern', () => {
    // "Garden" at 40 px DejaVu Sans is 147.3 wide: ending 0.1 em past the frame is its bearing.
    expect(frame(`<text x="356.7" y="80" font-size="40">Garden</text>`).textsOff).toEqual([]);
    expect(frame(`<text x="600" y="80" font-size="40">Garden</text>`).textsOff).toEqual([]);
    const tile =
      '<defs><pattern id="p" width="100" height="40" patternUnits="userSpaceOnUse"><text x="60" y="30" font-size="30">SALE</text></pattern></defs><rect width="500" height="500" fill="url(#p)"/>';
    expect(frame(tile).textsOff).toEqual([]);
  });
});
