// The CSS cleaner on its own and through the sanitiser: every place CSS can appear
// (presentation attributes, style="", <style>), escapes resolved once and never
// re-emitted, only url(#id) kept. The attack strings are the ones issue 10 reported.
import { describe, expect, it } from 'vitest';
import { cleanCss, sanitizeCss } from './css.ts';
import { sanitizeSvg } from './sanitize.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const MAGENTA = `<svg ${NS} viewBox="0 0 10 10"><defs><linearGradient id="g"><stop stop-color="#f0f"/></linearGradient></defs></svg>`;
const DATA = `data:image/svg+xml;base64,${Buffer.from(MAGENTA).toString('base64')}`;

/** Every url( the renderer could read, nested data: documents included. */
function externalUrls(svg: string): string[] {
  const out = [...svg.matchAll(/url\(\s*['"]?(?!#)[^'")]*/gi)].map((m) => m[0]);
  for (const m of svg.matchAll(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/g)) {
    out.push(...externalUrls(Buffer.from(m[1]!, 'base64').toString('utf8')));
  }
  return out;
}

function clean(svg: string): string {
  const r = sanitizeSvg(svg);
  if (!r.ok) throw new Error(r.error.message);
  return r.svg;
}

describe('CSS escapes cannot smuggle a url() past the sanitiser', () => {
  const attacks: [string, string][] = [
    ['hex-escaped url in fill=""', `<rect width="9" height="9" fill="\\75 rl(${DATA}#g)"/>`],
    ['hex-escaped url in stroke=""', `<rect width="9" height="9" stroke="u\\72l(${DATA}#g)"/>`],
    ['escaped url in mask=""', `<rect width="9" height="9" mask="\\75\\72\\6c(${DATA}#m)"/>`],
    ['escaped url in filter=""', `<rect width="9" height="9" filter="\\75 rl(${DATA}#f)"/>`],
    ['escaped url in marker-end=""', `<path d="M0 0L9 9" marker-end="\\75 rl(${DATA}#k)"/>`],
    ['escaped url in clip-path=""', `<rect width="9" height="9" clip-path="\\75 rl(${DATA}#c)"/>`],
    [
      'double escape in <style>',
      `<style>.a{fill:\\5c 75rl(${DATA}#g)}</style><rect class="a" width="9" height="9"/>`,
    ],
    ['double escape in style=""', `<rect style="fill:\\5c 75rl(${DATA}#g)" width="9" height="9"/>`],
    [
      'double escape of the parenthesis',
      `<rect style="fill:url\\5c 28${DATA}#g)" width="9" height="9"/>`,
    ],
    ['escaped property name', `<rect style="\\66ill:url(${DATA}#g)" width="9" height="9"/>`],
    ['url as a quoted string', `<rect style='fill:url("${DATA}#g")' width="9" height="9"/>`],
    ['url with escaped quote', `<rect style='fill:url("${DATA}\\"#g")' width="9" height="9"/>`],
    ['uppercase URL', `<rect fill="URL(${DATA}#g)" width="9" height="9"/>`],
    ['image-set in fill', `<rect fill="image-set('${DATA}' 1x)" width="9" height="9"/>`],
    ['-webkit-image-set', `<rect style="fill:-webkit-image-set('${DATA}' 1x)"/>`],
    ['image()', `<rect style="fill:image('${DATA}')"/>`],
    ['cross-fade()', `<rect style="fill:cross-fade(url(${DATA}), red)"/>`],
    ['element()', '<rect style="fill:element(#g)"/>'],
    [
      '@font-face src',
      `<style>@font-face{font-family:x;src:url(${DATA})}</style><text font-family="x">a</text>`,
    ],
    ['@import escaped', `<style>@\\69mport "${DATA}";</style>`],
    ['@import double-escaped', `<style>@\\5c 69mport "${DATA}";</style>`],
    [
      'url hidden in a custom property',
      `<style>:root{--p:url(${DATA}#g)} rect{fill:var(--p)}</style><rect width="9" height="9"/>`,
    ],
    ['url in a non-presentation attribute', `<rect width="9" height="9" x="url(${DATA}#g)"/>`],
    ['unclosed url in <style>', `<style>.a{fill:url(${DATA}#g</style><rect class="a"/>`],
  ];
  for (const [name, body] of attacks) {
    it(name, () => {
      const out = clean(`<svg ${NS} viewBox="0 0 9 9">${body}</svg>`);
      expect(externalUrls(out), out).toEqual([]);
      expect(out).not.toContain('base64,PHN2Z'); // the magenta document never survives
      expect(out).not.toMatch(/\\/); // no escape reaches the renderer
      expect(out).not.toMatch(/@import|image-set|cross-fade|element\(|@font-face/i);
    });
  }

  it('an escaped comment start stays out of the output instead of becoming a comment', () => {
    const removed = new Set<string>();
    const out = sanitizeCss('.a{fill:\\2f\\2a red} .b{fill:blue} .c{stroke:green}', removed);
    expect(out).not.toContain('/*');
    expect(out).toContain('.b{fill:blue}');
    expect(out).toContain('.c{stroke:green}'); // not swallowed by a comment
    expect(removed).toContain('css:escape');
  });

  it('resolves a plain escape to the same meaning and writes it back without a backslash', () => {
    const removed = new Set<string>();
    expect(cleanCss('\\72 ed', 'value', removed)).toBe('red');
    expect(cleanCss('f\\69ll:#c00', 'declarations', removed)).toBe('fill:#c00');
    expect(cleanCss('.\\61{fill:red}', 'stylesheet', removed)).toBe('.a{fill:red}');
    expect([...removed]).toEqual([]);
  });

  it('keeps what real drawings write, regenerated from the parse tree', () => {
    const removed = new Set<string>();
    const sheet =
      '.a { fill: url(#grad) #fff; stroke: hsl(200 50% 40% / .5); filter: drop-shadow(0 1px 2px rgba(0,0,0,.3)) } ' +
      '@media (prefers-color-scheme: dark) { .b { fill: var(--ink, #333) } } ' +
      'text:not(.x) > tspan[data-k="v"] { font: bold 12px/1.2 "Segoe UI", sans-serif }';
    const out = sanitizeCss(sheet, removed);
    expect([...removed]).toEqual([]);
    for (const kept of [
      'url(#grad)',
      'hsl(200 50% 40%/.5)',
      'drop-shadow(',
      '@media',
      'var(--ink,#333)',
      'tspan[data-k="v"]',
      '"Segoe UI"',
    ]) {
      expect(out).toContain(kept);
    }
    expect(cleanCss('url( "#g" )', 'value', removed)).toBe('url(#g)');
    // Plain colour functions and url(#id) are kept as written; anything else is regenerated.
    expect(cleanCss('rgb(255, 0, 0)', 'value', removed)).toBe('rgb(255, 0, 0)');
    expect(cleanCss('rgb(255, 0, 0) /* c */', 'value', removed)).toBe('rgb(255,0,0)');
    expect(cleanCss('url(#a) #fff', 'value', removed)).toBe('url(#a) #fff');
    expect(cleanCss('#00000020', 'value', removed)).toBe('#00000020');
  });

  it('answers a repeated value from its memo with the same removals', () => {
    for (let i = 0; i < 2; i++) {
      const removed = new Set<string>();
      expect(cleanCss('fill:url(http://x/a.svg#g);stroke:red', 'declarations', removed)).toBe(
        'fill:none;stroke:red',
      );
      expect([...removed]).toEqual(['css:url']);
    }
  });

  it('keeps the sheets models write: keyframes, universal and namespaced selectors', () => {
    const removed = new Set<string>();
    const sheet =
      '@keyframes spin{from{transform:rotate(0deg)}50%{opacity:.5}to{transform:rotate(360deg)}} ' +
      '* {stroke-linecap:round} svg|rect, #id > .x:hover {opacity:.5} .g:nth-child(2n+1){fill:red}';
    const out = sanitizeCss(sheet, removed);
    expect([...removed]).toEqual([]);
    for (const kept of [
      '@keyframes spin',
      '50%{opacity:.5}',
      '*{stroke',
      'svg|rect',
      '#id>.x:hover',
    ]) {
      expect(out).toContain(kept);
    }
  });

  it('clamps blur radii in CSS filter functions like feGaussianBlur', () => {
    const removed = new Set<string>();
    const out = cleanCss('blur(1e9px) drop-shadow(0 0 99999px red)', 'value', removed, {
      maxBlur: 100,
    });
    expect(out).toBe('blur(100px) drop-shadow(0 0 100px red)');
    expect(removed).toContain('filter:clamped');
  });
});
