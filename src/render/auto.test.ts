// Which files `renderer: 'auto'` sends to Chromium: only those using a feature librsvg was
// measured to draw differently (docs/rendering.md).
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
  });

  it('sends text, textPath, var(), turbulence, lighting, feTile and CSS filter functions to Chromium', () => {
    for (const body of [
      '<text>Hi</text>',
      '<svg:textPath/>',
      '<style>rect{fill:var(--c)}</style><rect/>',
      '<filter id="f"><feTurbulence/></filter>',
      '<filter id="f"><feSpecularLighting/></filter>',
      '<filter id="f"><feDiffuseLighting/></filter>',
      '<filter id="f"><feTile/></filter>',
      '<filter id="f"><feDisplacementMap/></filter>',
      '<rect style="filter: blur(2px)"/>',
    ]) {
      expect(chooseRenderer(svg(body)), body).toBe('chromium');
    }
  });

  it('reads bytes as well as strings', () => {
    expect(chooseRenderer(new TextEncoder().encode(svg('<text>x</text>')))).toBe('chromium');
  });
});
