// Which files `renderer: 'auto'` (the default) sends to Chromium: only those using a
// feature librsvg was measured to draw differently (docs/rendering.md).
import { describe, expect, it } from 'vitest';
import { chooseRenderer } from './auto.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const svg = (body: string) => `<svg ${NS} viewBox="0 0 10 10">${body}</svg>`;

describe('chooseRenderer', () => {
  it('keeps plain drawings, filters librsvg draws well and url() filters on librsvg', () => {
    expect(chooseRenderer(svg('<rect width="5" height="5" fill="hsl(1,50%,50%)"/>'))).toBe(
      'librsvg',
    );
    const blur = '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>';
    expect(chooseRenderer(svg(`${blur}<rect style="filter:url(#f)"/>`))).toBe('librsvg');
    expect(chooseRenderer(svg('<rect class="context"/>'))).toBe('librsvg');
    // A single blur(), drop-shadow() or opacity() draws within 0.5/255 (css-filter-single).
    expect(chooseRenderer(svg('<rect style="filter: blur(2px)"/>'))).toBe('librsvg');
    expect(
      chooseRenderer(svg('<style>.s{filter:drop-shadow(0 0 4px rgba(0,0,0,.6))}</style>')),
    ).toBe('librsvg');
    expect(chooseRenderer(svg('<rect filter="opacity(0.5)"/>'))).toBe('librsvg');
  });

  it('keeps text and document-wide var() on librsvg', () => {
    // Changed with the unhinted fonts (text 0.6/255 off Chromium) and the sanitiser's var()
    // substitution (css-variables 68 → 0.06/255): both used to go to Chromium.
    expect(chooseRenderer(svg('<text>Hi</text>'))).toBe('librsvg');
    expect(chooseRenderer(svg('<text text-anchor="middle">Hi</text>'))).toBe('librsvg');
    expect(chooseRenderer(svg('<text letter-spacing="2">Hi</text>'))).toBe('librsvg');
    expect(chooseRenderer(svg('<style>:root{--c:red}rect{fill:var(--c)}</style><rect/>'))).toBe(
      'librsvg',
    );
    expect(chooseRenderer(svg('<style>rect{fill:var(--undefined, red)}</style><rect/>'))).toBe(
      'librsvg',
    );
  });

  it('sends textPath, scoped var(), spaced anchored text, turbulence, lighting, feTile and colour or chained CSS filter functions to Chromium', () => {
    for (const body of [
      '<svg:textPath/>',
      '<style>.a{--c:red}rect{fill:var(--c)}</style><g class="a"><rect/></g>',
      '<g style="--c: red"><rect fill="var(--c)"/></g>',
      '<text text-anchor="end" letter-spacing="2">Hi</text>',
      '<style>text{letter-spacing:1px;text-anchor:middle}</style><text>Hi</text>',
      '<filter id="f"><feTurbulence/></filter>',
      '<filter id="f"><feSpecularLighting/></filter>',
      '<filter id="f"><feDiffuseLighting/></filter>',
      '<filter id="f"><feTile/></filter>',
      '<filter id="f"><feDisplacementMap/></filter>',
      '<rect style="filter: blur(2px) grayscale(0.5)"/>',
      '<rect filter="sepia(1)"/>',
      '<style>.a{filter:hue-rotate(90deg)}</style>',
      '<rect style="filter:url(#f) blur(1px)"/>',
    ]) {
      expect(chooseRenderer(svg(body)), body).toBe('chromium');
    }
  });

  it('reads bytes as well as strings', () => {
    expect(chooseRenderer(new TextEncoder().encode(svg('<textPath>x</textPath>')))).toBe(
      'chromium',
    );
  });
});
