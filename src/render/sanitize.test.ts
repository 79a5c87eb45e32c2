// The sanitiser on its own: what it keeps, what it removes, what it measures, how it fits
// the root. Fast, in-process tests; the rendering sandbox is tested in test/hostile.
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { sanitizeCss } from './css.ts';
import { fitRoot } from './fit.ts';
import { countPathSegments, countPointSegments } from './path-segments.ts';
import { sanitizeSvg } from './sanitize.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('sanitizeSvg', () => {
  it('keeps every real icon and its drawing, and changes only the root size', () => {
    for (const icon of fluentEmoji(60)) {
      const r = sanitizeSvg(icon.svg, { size: 512 });
      expect(r.ok, icon.name).toBe(true);
      if (!r.ok) continue;
      expect(r.code.removed).toEqual([]);
      expect(r.code.viewBox).toEqual([0, 0, 32, 32]);
      expect(r.svg).toContain('width="384" height="384" viewBox="0 0 32 32"');
      const paths = icon.svg.match(/<path /g)?.length ?? 0;
      expect(r.svg.match(/<path /g)?.length ?? 0).toBe(paths);
    }
  });

  it('measures texts, strokes, segments, depth and <use> expansion', () => {
    const svg = `<svg ${NS} viewBox="0 0 10 10"><defs><g id="d"><rect width="1" height="1"/><circle r="1"/></g></defs>
      <g stroke="#000"><path d="M0 0 L1 1 2 2 C1 1 2 2 3 3 Z" fill="none"/><line x2="5"/><polygon points="0,0 1,0 1,1"/></g>
      <use href="#d"/><use href="#d"/><text x="1">Cat <tspan>Hat</tspan></text></svg>`;
    const r = sanitizeSvg(svg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.code.texts).toEqual(['Cat', 'Hat']);
    expect(r.code.strokedShapes).toBe(2); // the unfilled path and the line
    expect(r.code.pathSegments).toBe(4 + 1 + 3);
    expect(r.code.elements).toBe(13);
    expect(r.code.expandedElements).toBe(13 + 2 * 3);
    expect(r.code.maxDepth).toBe(4);
  });

  it('counts path segments per parameter group, implicit repeats included', () => {
    expect(countPathSegments('M0 0 L1 1 2 2 3 3')).toBe(3);
    expect(countPathSegments('m0 0h1v1h-1z')).toBe(4);
    expect(countPathSegments('M0,0 A1 1 0 0 1 2 2 1 1 0 0 1 3 3')).toBe(2);
    expect(countPathSegments('M.5.5.5.5')).toBe(1);
    expect(countPointSegments('0,0 1,0 1,1', true)).toBe(3);
  });

  it('removes scripts, handlers, foreign content and external references', () => {
    const svg = `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><script>x()</script>
      <a href="https://example.com"><rect onclick="x()" width="1" height="1"/></a>
      <image xlink:href="../etc/passwd"/><use href="#ok"/><rect id="ok" fill="url(#g)" stroke="url(x.svg#g)"/>
      <foreignObject><p/></foreignObject><animate attributeName="href" to="http://x"/></svg>`;
    const r = sanitizeSvg(svg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.code.removed.sort()).toEqual(
      [
        'animate',
        'css:url',
        'event-handler',
        'foreignObject',
        'href:http',
        'href:relative',
        'script',
      ].sort(),
    );
    expect(r.svg).toContain('<use href="#ok"/>');
    expect(r.svg).toContain('fill="url(#g)"');
    expect(r.svg).toContain('stroke="none"');
    expect(r.svg).not.toMatch(/script|onclick|passwd|example\.com|foreignObject|animate/);
  });

  it('keeps plain presentation values as written and still parses anything else', () => {
    const plain = ['#d22', 'none', '1.5', '5, 3 2', '12px', '-0.5e2%', 'currentColor', '#FF000080'];
    const svg = `<svg ${NS}>${plain.map((v) => `<rect fill="${v}" stroke-dasharray="${v}"/>`).join('')}
      <rect fill="red\\,url(http://x/)"/><rect fill="#d22 url(https://x/a.svg)"/>
      <rect fill="${'1 '.repeat(150)}"/><rect stroke="rgb(1,2,3)"/></svg>`;
    const r = sanitizeSvg(svg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    for (const v of plain) expect(r.svg).toContain(`fill="${v}"`);
    // Not plain: escapes, url(), functions and long values go through css-tree as before.
    expect(r.svg).not.toMatch(/https?:\/\/x|\\/);
    expect(r.code.removed).toContain('css:url');
    expect(r.svg).toContain('stroke="rgb(1,2,3)"');
    expect(r.svg).toMatch(/fill="1( 1){149} ?"/);
  });

  it('keeps data: raster images within limits and rejects over-budget data', () => {
    const png1x1 =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const ok = sanitizeSvg(`<svg ${NS}><image href="${png1x1}" width="1" height="1"/></svg>`);
    expect(ok.ok && ok.svg.includes(png1x1)).toBe(true);
    const tooBig = sanitizeSvg(`<svg ${NS}><image href="${png1x1}"/></svg>`, {
      limits: { maxDataUriBytes: 50 },
    });
    expect(tooBig.ok ? 'ok' : tooBig.error.code).toBe('too_large');
    const html = sanitizeSvg(`<svg ${NS}><image href="data:text/html,<b>x</b>"/></svg>`);
    expect(html.ok && html.code.removed).toEqual(['data:text/html']);
  });

  it('rejects malformed XML and non-SVG roots as parse_error', () => {
    const bad = [
      '<svg>',
      '<svg><g></svg>',
      '<svg a="1" a="2"/>',
      'hello',
      '<html/>',
      '<svg/><svg/>',
    ];
    bad.push('<svg><text>a&nbsp;b</text></svg>'); // HTML entity: an XML error to CairoSVG
    for (const b of bad) {
      const r = sanitizeSvg(b);
      expect(r.ok ? 'ok' : r.error.code, b).toBe('parse_error');
    }
  });

  it('decodes character references and declared entities', () => {
    const r = sanitizeSvg(
      '<!DOCTYPE svg [<!ENTITY c "#c00">]><svg><text fill="&c;">&#65;&#x42;&amp;</text></svg>',
    );
    expect(r.ok && r.code.texts).toEqual(['AB&']);
    expect(r.ok && r.svg).toContain('<text fill="#c00">AB&amp;</text>');
  });

  it('refuses a root outside the SVG namespace, as CairoSVG does', () => {
    const r = sanitizeSvg('<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>');
    expect(r.ok ? 'ok' : r.error.code).toBe('parse_error');
  });

  it('adds the SVG namespace model output often forgets', () => {
    const r = sanitizeSvg('<svg viewBox="0 0 4 4"><rect id="a"/></svg>');
    expect(r.ok && r.svg).toMatch(
      /^<svg viewBox="0 0 4 4" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
  });

  it('refuses an undeclared xlink: prefix like CairoSVG, or repairs it on request', () => {
    const svg =
      '<svg viewBox="0 0 4 4"><use xlink:href="#a"/><rect id="a" inkscape:label="x"/></svg>';
    const strict = sanitizeSvg(svg);
    expect(strict.ok ? 'ok' : strict.error.message).toMatch(/unbound namespace prefix/);
    const repaired = sanitizeSvg(svg, { repair: true });
    expect(repaired.ok && repaired.svg).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
    expect(repaired.ok && repaired.svg).toContain('<use xlink:href="#a"/><rect id="a"/>');
  });
});

describe('error codes for what XML forbids, and parameter entities (issue 10 item 16)', () => {
  const H = (fill: string, extra = '') =>
    `<svg ${NS} viewBox="0 0 10 10">${extra}<rect width="10" height="10" fill="${fill}"/></svg>`;

  it('a NUL or other C0 control, raw or referenced, is a parse_error naming it', () => {
    const nul = sanitizeSvg(H('#c00', `<text>a${String.fromCharCode(0)}b</text>`));
    expect(nul.ok ? 'ok' : nul.error.message).toMatch(/NUL character \(U\+0000\) at line 1/);
    for (const bad of [
      H('#c00', `<text>${String.fromCharCode(7)}</text>`),
      H('#c00', '<text>a&#0;b</text>'),
      H('#c00', '<text>&#x1B;</text>'),
    ]) {
      const r = sanitizeSvg(bad);
      expect(r.ok ? 'ok' : r.error.code, bad).toBe('parse_error');
    }
    expect(sanitizeSvg(H('#c00', '<text>tab&#9;ok</text>')).ok).toBe(true);
  });

  it('a non-SVG input says what it starts with', () => {
    const r = sanitizeSvg('<html><body>hello</body></html>');
    expect(r.ok ? 'ok' : r.error.message).toMatch(/no <svg> element.*<html><body>/);
    const e = sanitizeSvg('');
    expect(e.ok ? 'ok' : `${e.error.code} ${e.error.message}`).toBe(
      'parse_error no <svg> element (empty input)',
    );
  });

  it('expands an internal parameter entity (librsvg and fast-xml-parser alone refuse it)', () => {
    const r = sanitizeSvg(`<!DOCTYPE svg [<!ENTITY % p "<!ENTITY c '#c00'>"> %p;]>${H('&c;')}`);
    expect(r.ok ? r.svg : r.error.message).toContain('fill="#c00"');
    const unused = sanitizeSvg(`<!DOCTYPE svg [<!ENTITY % p "x">]>${H('#0a0')}`);
    expect(unused.ok).toBe(true);
  });

  it('never fetches an external parameter entity: parse_error', () => {
    const r = sanitizeSvg(
      `<!DOCTYPE svg [<!ENTITY % x SYSTEM "http://127.0.0.1:9/e.dtd"> %x;]>${H('#c00')}`,
    );
    expect(r.ok ? 'ok' : `${r.error.code} ${r.error.message}`).toMatch(
      /^parse_error external parameter entity %x;/,
    );
    const undef = sanitizeSvg(`<!DOCTYPE svg [%nope;]>${H('#c00')}`);
    expect(undef.ok ? 'ok' : undef.error.code).toBe('parse_error');
  });
});

describe('ids and <use> as browsers resolve them (issue 25)', () => {
  it('drops a <use> of its own ancestor (or of itself) and keeps the drawing', () => {
    const svg = `<svg ${NS} viewBox="0 0 10 10"><g id="tree"><rect width="4" height="4"/><g><use href="#tree" x="5"/></g></g><use id="me" href="#me"/><circle cx="8" cy="8" r="1"/></svg>`;
    const r = sanitizeSvg(svg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.svg).not.toContain('<use');
    expect(r.svg).toContain('<rect');
    expect(r.svg).toContain('<circle');
    expect(r.code.removed).toContain('use:ancestor');
    // A <use> of the same group from outside it is drawn.
    const outside = sanitizeSvg(svg.replace('<circle', '<use href="#tree" y="5"/><circle'));
    expect(outside.ok && outside.svg.match(/<use /g)?.length).toBe(1);
  });
  it('a cycle through two groups is still refused', () => {
    const svg = `<svg ${NS}><defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/></svg>`;
    const r = sanitizeSvg(svg);
    expect(!r.ok && r.error.code).toBe('too_large');
  });
  it('resolves an id shared by a gradient and a <g> to the first (no false reference cycle)', () => {
    // The group fills its shapes with url(#sky): the gradient, which comes first.
    const svg = `<svg ${NS} viewBox="0 0 10 10"><linearGradient id="sky"><stop offset="0" stop-color="#9cf"/><stop offset="1" stop-color="#fff"/></linearGradient><g id="sky" fill="url(#sky)"><rect width="10" height="10"/></g></svg>`;
    const r = sanitizeSvg(svg);
    expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
    // And a <use> of the shared id counts the first element (the gradient's 3), not the group.
    const used = sanitizeSvg(svg.replace('</svg>', '<use href="#sky"/></svg>'));
    expect(used.ok && used.code.expandedElements).toBe(sanitizeSvg(svg).code!.expandedElements + 4);
  });
});

describe('sanitizeCss', () => {
  it('drops @import and non-local url(), also behind comments and escapes', () => {
    const removed = new Set<string>();
    const css = sanitizeCss(
      '@import "a.css"; @im/**/port url(b.css); .a{fill:url(#g)} .b{fill:url( "http://x" )} .c{fill:\\75 rl(y)}',
      removed,
    );
    expect(css).not.toMatch(/import|http|y\)/);
    expect(css).toContain('url(#g)');
    // `@im/**/port` is the at-rule "@im" to a CSS parser (a comment ends a token): dropped.
    expect([...removed].sort()).toEqual(['css:@import', 'css:at-rule', 'css:url']);
  });
});

describe('fitRoot (CairoSVG output_width/output_height semantics)', () => {
  it('keeps a valid viewBox and sets the output size', () => {
    expect(fitRoot({ viewBox: '0 0 100 50', width: '10' }, 512)).toMatchObject({
      width: '384',
      height: '384',
      viewBox: '0 0 100 50',
    });
  });
  it('derives the viewBox from width/height in physical units', () => {
    const f = fitRoot({ width: '1in', height: '48pt' }, 256);
    expect(f.viewBox).toBe('0 0 96 64');
  });
  it('centres a drawing with no size at 1:1, as CairoSVG does', () => {
    expect(fitRoot({}, 512).viewBox).toBe('-256 -256 512 512');
    expect(fitRoot({ width: '100' }, 512).viewBox).toBe('-206 -256 512 512');
  });
});
