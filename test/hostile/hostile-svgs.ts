// Hostile SVG documents for the sandbox tests, built in code so nothing huge is stored.
// `planted` paths point at files a test writes: their colour must never reach a picture.
import type { RenderOptions } from '../../src/render/index.ts';

export const PLANT_RGB = [255, 0, 255] as const; // magenta: absent from the clean drawings

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
/** A small dark square so a clean result is a real, non-blank picture. */
const MARK = '<rect x="40" y="40" width="20" height="20" fill="#234"/>';

export function doc(inner: string, attrs = 'viewBox="0 0 100 100"'): string {
  return `<svg ${NS} ${attrs}>${MARK}${inner}</svg>`;
}

export interface Planted {
  dir: string;
  png: string; // absolute path of a magenta PNG
  svg: string; // absolute path of an SVG holding a magenta rect with id "p"
  secret: string; // absolute path of a text file
  secretText: string;
  httpBase: string; // loopback server that counts requests
}

export interface HostileCase {
  name: string;
  svg: string | Uint8Array;
  /**
   * Allowed outcomes: 'ok' (a safe picture) and/or error codes. Filter bombs are clamped
   * to a cost of well under a second here, but on a heavily loaded machine may still meet
   * the wall-clock limit: 'timeout' is the pool doing its job, so it is allowed for them.
   */
  expect: string[];
  /** Things the sanitiser must report as removed (when the outcome is ok). */
  removed?: string[];
  /** Render options for this case (e.g. a larger byte limit, to reach a later limit). */
  opts?: RenderOptions;
  /** A word the error message must contain, naming the limit that stopped it. */
  because?: string;
}

function entityBomb(): string {
  let decl = '<!ENTITY lol0 "lollollollollollollollollollol">';
  for (let i = 1; i <= 9; i++) decl += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
  return `<?xml version="1.0"?><!DOCTYPE svg [${decl}]>${doc('<text x="1" y="20">&lol9;</text>')}`;
}

function quadraticBlowup(): string {
  const big = 'A'.repeat(50_000);
  return `<!DOCTYPE svg [<!ENTITY a "${big}">]>${doc(`<text y="20">${'&a;'.repeat(2000)}</text>`)}`;
}

function useFanOut(levels: number, fan: number): string {
  let defs = '<g id="l0"><rect width="1" height="1"/></g>';
  for (let i = 1; i <= levels; i++) {
    defs += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(fan)}</g>`;
  }
  return doc(`<defs>${defs}</defs><use href="#l${levels}"/>`);
}

function nestedDataSvg(levels: number, innermost: string): string {
  let svg = innermost;
  for (let i = 0; i < levels; i++) {
    const uri = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    svg = doc(`<image width="100" height="100" href="${uri}"/>`);
  }
  return svg;
}

/** A PNG header declaring 100000×100000 pixels (the body is irrelevant: never decoded). */
function pngBombUri(): string {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(100_000, 16);
  head.writeUInt32BE(100_000, 20);
  head[24] = 8;
  head[25] = 2;
  return `data:image/png;base64,${head.toString('base64')}`;
}

export function hostileCases(p: Planted): HostileCase[] {
  const magentaSvg = `<svg ${NS} viewBox="0 0 10 10"><rect id="p" width="10" height="10" fill="#f0f"/></svg>`;
  const img = (href: string) => doc(`<image x="0" y="0" width="100" height="100" href="${href}"/>`);
  const ximg = (href: string) => doc(`<image width="100" height="100" xlink:href="${href}"/>`);
  return [
    { name: 'entity bomb (billion laughs)', svg: entityBomb(), expect: ['ok', 'parse_error'] },
    { name: 'entity quadratic blowup', svg: quadraticBlowup(), expect: ['ok', 'parse_error'] },
    {
      name: 'XXE file read',
      svg: `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file://${p.secret}">]>${doc('<text y="20">&xxe;</text>')}`,
      expect: ['ok', 'parse_error'],
    },
    {
      name: 'XXE parameter entity',
      svg: `<!DOCTYPE svg [<!ENTITY % x SYSTEM "${p.httpBase}/dtd"> %x;]>${doc('')}`,
      expect: ['ok', 'parse_error'],
    },
    { name: 'image http', svg: img(`${p.httpBase}/a.png`), expect: ['ok'], removed: ['href:http'] },
    { name: 'image file://', svg: img(`file://${p.png}`), expect: ['ok'], removed: ['href:file'] },
    { name: 'image absolute path', svg: img(p.png), expect: ['ok'], removed: ['href:absolute'] },
    {
      name: 'image relative path',
      svg: img('planted.png'),
      expect: ['ok'],
      removed: ['href:relative'],
    },
    {
      name: 'xlink:href relative',
      svg: ximg('./planted.png'),
      expect: ['ok'],
      removed: ['href:relative'],
    },
    {
      name: 'use of an external SVG',
      svg: doc(`<use href="planted.svg#p"/><use xlink:href="file://${p.svg}#p"/>`),
      expect: ['ok'],
      removed: ['href:relative', 'href:file'],
    },
    {
      name: 'feImage of a planted file',
      svg: doc(
        `<filter id="f"><feImage href="${p.png}"/></filter><rect width="100" height="100" filter="url(#f)"/>`,
      ),
      expect: ['ok'],
      removed: ['href:absolute'],
    },
    {
      name: 'CSS @import and url()',
      svg: doc(
        `<style>@import url(${p.httpBase}/x.css); @import "planted.css"; .p{fill:url(planted.svg#p)} .b{background-image:url("${p.httpBase}/b.png")}</style><rect class="b p" width="10" height="10" style="fill:url(file://${p.svg}#p)"/>`,
      ),
      expect: ['ok'],
      removed: ['css:@import', 'css:url'],
    },
    {
      name: 'CSS escapes hiding url() and @import',
      svg: doc(
        `<style>@im\\70 ort "${p.httpBase}/e.css"; .q{fill:u\\72l(planted.svg#p)}</style><circle class="q" cx="5" cy="5" r="5"/>`,
      ),
      expect: ['ok'],
      removed: ['css:@import', 'css:url'],
    },
    {
      name: 'xml-stylesheet processing instruction',
      svg: `<?xml-stylesheet href="${p.httpBase}/pi.css" type="text/css"?>${doc('')}`,
      expect: ['ok'],
    },
    {
      name: 'script and event handlers',
      svg: doc(
        `<script>fetch('${p.httpBase}/js')</script><rect width="5" height="5" onload="fetch('${p.httpBase}/on')"/>`,
      ),
      expect: ['ok'],
      removed: ['script', 'event-handler'],
    },
    {
      name: 'foreignObject',
      svg: doc(
        `<foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="${p.png}"/></div></foreignObject>`,
      ),
      expect: ['ok'],
      removed: ['foreignObject'],
    },
    {
      name: '100000×100000 canvas',
      svg: `<svg ${NS} width="100000" height="100000"><circle cx="50000" cy="50000" r="40000" fill="#234"/></svg>`,
      expect: ['ok'],
    },
    {
      name: 'path of 10^6 segments (byte limit raised to reach the segment limit)',
      svg: doc(`<path d="M0 0l${' 1 1'.repeat(1_000_000)}"/>`),
      opts: { limits: { maxBytes: 8 * 1024 * 1024 } },
      expect: ['too_large'],
      because: 'segments',
    },
    {
      name: 'path of 10^6 segments (default limits)',
      svg: doc(`<path d="M0 0${' L1 1'.repeat(1_000_000)}"/>`),
      expect: ['too_large'],
    },
    {
      name: 'many paths: 200,000 segments in 1 MB',
      svg: doc(`<path d="M0 0l${' 1 1'.repeat(100_000)}"/>`.repeat(2)),
      expect: ['too_large'],
      because: 'segments',
    },
    {
      name: '20,000 nested groups',
      svg: doc(`${'<g>'.repeat(20_000)}<rect width="1" height="1"/>${'</g>'.repeat(20_000)}`),
      expect: ['too_large'],
      because: 'nesting',
    },
    {
      name: '20 MB file of small circles',
      svg: doc('<circle cx="5" cy="5" r="1"/>'.repeat(700_000)),
      expect: ['too_large'],
      because: 'byte',
    },
    {
      name: '30,000 small circles in 1 MB (element limit)',
      svg: doc('<circle cx="5" cy="5" r="1"/>'.repeat(30_000)),
      expect: ['too_large'],
      because: 'elements',
    },
    {
      name: '<use> cycle',
      svg: doc('<g id="a"><use href="#b"/></g><g id="b"><use xlink:href="#a"/></g>'),
      expect: ['too_large'],
      because: 'cycle',
    },
    // Browsers do not draw a <use> of itself or of its ancestor, and draw the rest (issue 25).
    {
      name: '<use> self reference',
      svg: doc('<use id="s" href="#s"/>'),
      expect: ['ok'],
      removed: ['use:ancestor'],
    },
    {
      name: '<use> of its own ancestor',
      svg: doc('<g id="t"><rect width="9" height="9"/><use href="#t" x="10"/></g>'),
      expect: ['ok'],
      removed: ['use:ancestor'],
    },
    {
      name: '<use> exponential fan-out',
      svg: useFanOut(9, 10),
      expect: ['too_large'],
      because: 'expansion',
    },
    {
      name: 'filter bomb: huge blur',
      svg: doc(
        '<filter id="b" x="-10000%" y="-10000%" width="20000%" height="20000%"><feGaussianBlur stdDeviation="1e9"/></filter><circle cx="50" cy="50" r="30" filter="url(#b)"/>',
      ),
      expect: ['ok', 'timeout'],
      removed: ['filter:clamped'],
    },
    {
      name: 'filter bomb: morphology radius 9999',
      svg: doc(
        '<filter id="m"><feMorphology operator="dilate" radius="9999"/></filter><circle cx="50" cy="50" r="30" filter="url(#m)"/>',
      ),
      expect: ['ok', 'timeout'],
      removed: ['filter:clamped'],
    },
    {
      name: 'filter bomb: huge convolution kernel',
      svg: doc(
        `<filter id="c"><feConvolveMatrix order="300" kernelMatrix="${'1 '.repeat(90_000)}"/></filter><rect width="100" height="100" filter="url(#c)"/>`,
      ),
      expect: ['ok', 'timeout'],
      removed: ['feConvolveMatrix:order'],
    },
    {
      name: 'filter bomb: turbulence octaves',
      svg: doc(
        '<filter id="t"><feTurbulence baseFrequency="0.05" numOctaves="1000000"/></filter><rect width="100" height="100" filter="url(#t)"/>',
      ),
      expect: ['ok', 'timeout'],
      removed: ['filter:clamped'],
    },
    {
      name: 'marker fan-out: 100,000 vertices with a marker',
      svg: doc(
        `<marker id="m" markerWidth="9" markerHeight="9"><circle r="3"/><circle r="2"/></marker><path marker-mid="url(#m)" stroke="#000" d="M0 0${' l0.001 0.001'.repeat(100_000)}"/>`,
      ),
      expect: ['too_large'],
      because: 'expansion',
    },
    {
      name: 'filter fan-out: 300 full-canvas blurs',
      svg: doc(
        `<filter id="b"><feGaussianBlur stdDeviation="50"/></filter>${'<rect width="100" height="100" filter="url(#b)"/>'.repeat(300)}`,
      ),
      expect: ['too_large'],
      because: 'filtered',
    },
    {
      name: 'dash bomb: 10^10 dashes',
      svg: doc('<path d="M0 0L1e7 1e7" stroke="#000" stroke-dasharray="0.001"/>'),
      expect: ['ok', 'timeout'],
    },
    {
      name: 'nested data: SVG recursion',
      svg: nestedDataSvg(6, magentaSvg),
      expect: ['ok'],
      removed: ['nested:nested:data:svg-too-deep'],
    },
    {
      name: 'nested data: SVG with an external image',
      svg: nestedDataSvg(1, img(`file://${p.png}`)),
      expect: ['ok'],
      removed: ['nested:href:file'],
    },
    {
      name: 'data: PNG declaring 10^10 pixels',
      svg: img(pngBombUri()),
      expect: ['ok'],
      removed: ['data:image-too-large'],
    },
    {
      name: 'invalid UTF-8',
      svg: Buffer.concat([
        Buffer.from(doc('<text y="9">')),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('</text></svg>'),
      ]),
      expect: ['parse_error'],
    },
    { name: 'lone surrogate', svg: doc('<text y="9">\ud800</text>'), expect: ['parse_error'] },
    {
      name: 'NaN and Infinity geometry',
      svg: doc(
        '<rect x="NaN" y="Infinity" width="-Infinity" height="1e400"/><circle cx="1e308" cy="-1e308" r="1e308"/><path d="M NaN 0 L Infinity 1e999 Z"/><g transform="scale(1e308) rotate(NaN)"><rect width="1" height="1"/></g>',
      ),
      expect: ['ok', 'render_error'],
    },
    { name: 'not XML', svg: '<svg><g></svg>', expect: ['parse_error'] },
    { name: 'root is not svg', svg: '<html><svg/></html>', expect: ['parse_error'] },
    { name: 'empty', svg: '', expect: ['parse_error'] },
  ];
}

/** A data: SVG whose gradient #g, pattern #p and rect #r are all the planted magenta. */
function magentaDataUri(): string {
  const m = `<svg ${NS} viewBox="0 0 10 10"><defs><linearGradient id="g"><stop stop-color="#f0f"/></linearGradient><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="#f0f"/></pattern></defs><rect id="r" width="10" height="10" fill="#f0f"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(m).toString('base64')}`;
}

/**
 * Issue 10 item 1: CSS escapes that walked around the sanitiser. Each target is the
 * planted magenta (a data: document, a planted file) or the loopback logger.
 */
export function cssEscapeCases(p: Planted): HostileCase[] {
  const data = magentaDataUri();
  const box = (attrs: string) => doc(`<rect width="100" height="100" ${attrs}/>`);
  const removedUrl = ['css:url'];
  const cases: [string, string, string[]][] = [
    ['fill="\\75 rl(data: SVG)"', box(`fill="\\75 rl(${data}#g)"`), removedUrl],
    [
      'stroke="u\\72l(file)"',
      box(`stroke="u\\72l(file://${p.svg}#p)" stroke-width="50"`),
      removedUrl,
    ],
    [
      'mask="\\75\\72\\6c(http)"',
      box(`fill="#234" mask="\\75\\72\\6c(${p.httpBase}/m.svg#m)"`),
      removedUrl,
    ],
    ['filter="\\75 rl(http)"', box(`filter="\\75 rl(${p.httpBase}/f.svg#f)"`), removedUrl],
    [
      'clip-path="\\75 rl(data: SVG)"',
      box(`fill="#234" clip-path="\\75 rl(${data}#r)"`),
      removedUrl,
    ],
    [
      'marker-end escaped url',
      doc(`<path d="M10 10L90 90" stroke="#234" marker-end="\\75 rl(${data}#r)"/>`),
      removedUrl,
    ],
    [
      'double escape in <style>',
      doc(`<style>.a{fill:\\5c 75rl(${data}#g)}</style><rect class="a" width="100" height="100"/>`),
      [],
    ],
    ['double escape in style=""', box(`style="fill:\\5c 75rl(${data}#g)"`), []],
    ['escaped parenthesis in style=""', box(`style="fill:url\\28${data}#g)"`), []],
    ['escaped property name', box(`style="\\66ill:url(${data}#g)"`), removedUrl],
    ['uppercase URL(http)', box(`fill="URL(${p.httpBase}/u.svg#g)"`), removedUrl],
    ['image-set() in fill', box(`style="fill:image-set('${p.httpBase}/a.png' 1x)"`), removedUrl],
    [
      '-webkit-image-set()',
      box(`style="fill:-webkit-image-set(url(${p.httpBase}/b.png) 1x)"`),
      removedUrl,
    ],
    [
      'cross-fade() and element()',
      doc(
        `<style>.a{fill:cross-fade(url(${p.httpBase}/c.png),red)} .b{fill:element(#r)}</style><rect class="a b" width="100" height="100"/>`,
      ),
      removedUrl,
    ],
    [
      '@font-face src',
      doc(
        `<style>@font-face{font-family:P;src:url(${p.httpBase}/font.woff)}</style><text font-family="P" y="50">x</text>`,
      ),
      ['css:@font-face'],
    ],
    [
      'escaped @import',
      doc(`<style>@\\69mport url(${p.httpBase}/i.css);</style>`),
      ['css:@import'],
    ],
    ['double-escaped @import', doc(`<style>@\\5c 69mport url(${p.httpBase}/j.css);</style>`), []],
    [
      'url in a custom property',
      doc(
        // The sanitiser substitutes var() (sanitize-vars.ts), so the url reaches the cleaner
        // as a fill and goes: fill none, as in a browser. The stroke is the clean part.
        `<style>:root{--m:url(${data}#g)} rect{fill:var(--m);stroke:#123;stroke-width:8}</style><rect width="100" height="100"/>`,
      ),
      removedUrl,
    ],
    [
      'escaped comment start hides a rule',
      doc(
        `<style>.a{fill:\\2f\\2a}.b{fill:url(${p.httpBase}/k.svg#g)}</style><rect class="b" width="100" height="100"/>`,
      ),
      removedUrl,
    ],
    [
      'unterminated url() in <style>',
      doc(
        `<style>.a{fill:url(${p.httpBase}/l.svg#g</style><rect class="a" width="100" height="100"/>`,
      ),
      [],
    ],
    ['url() in a non-presentation attribute', box(`x="url(${data}#g)" fill="#234"`), removedUrl],
  ];
  return cases.map(([name, svg, removed]) => ({
    name: `CSS escape: ${name}`,
    svg,
    expect: ['ok'],
    removed,
  }));
}

/** Issue 10 item 16: small files that would burn a render slot, and error codes. */
export function renderSlotCases(p: Planted): HostileCase[] {
  const blur = (n: number) => '<feGaussianBlur stdDeviation="3"/>'.repeat(n);
  return [
    {
      name: 'slot: 5,000 blur primitives in one filter',
      svg: doc(
        `<filter id="f">${blur(5000)}</filter><rect width="100" height="100" filter="url(#f)"/>`,
      ),
      expect: ['too_large'],
      because: 'filter passes',
    },
    {
      name: 'slot: a <style> rule filtering 300 elements',
      svg: doc(
        `<style>.f{filter:url(#b)}</style><filter id="b">${blur(2)}</filter>${'<rect class="f" width="100" height="100"/>'.repeat(300)}`,
      ),
      expect: ['too_large'],
      because: 'filter passes',
    },
    {
      name: 'slot: a filtered mask on 3,000 elements',
      svg: doc(
        `<filter id="f">${blur(1)}</filter><mask id="m"><rect width="100" height="100" fill="#fff" filter="url(#f)"/></mask>${'<rect width="100" height="100" mask="url(#m)"/>'.repeat(3000)}`,
      ),
      expect: ['too_large'],
      because: 'filter passes',
    },
    {
      name: 'slot: filter region of 10^6 user units',
      svg: doc(
        '<filter id="b" filterUnits="userSpaceOnUse" x="-1e6" y="-1e6" width="2e6" height="2e6"><feMorphology radius="2"/><feGaussianBlur stdDeviation="2"/></filter><rect width="100" height="100" filter="url(#b)"/>',
      ),
      expect: ['ok', 'timeout'],
      removed: ['filter:clamped'],
    },
    {
      name: 'slot: a 1.5 MB line of text',
      svg: doc(`<text y="50" font-size="1">${'abcdefghij '.repeat(140_000)}</text>`),
      expect: ['too_large'],
      because: 'text run',
    },
    {
      name: 'slot: 40,000 glyphs in 20,000 tspans',
      svg: doc(`<text y="50" font-size="1">${'<tspan>ab</tspan>'.repeat(20_000)}</text>`),
      expect: ['too_large'],
      because: 'glyphs',
    },
    {
      name: 'slot: filter region scaled by transform(1000)',
      svg: doc(
        '<filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="100"/></filter><g transform="scale(1000)"><rect width="100" height="100" filter="url(#b)"/></g>',
      ),
      expect: ['ok'],
    },
    {
      name: 'slot: blur in a 10^7-unit viewBox',
      svg: `<svg ${NS} viewBox="0 0 1e7 1e7"><rect x="4e6" y="4e6" width="2e6" height="2e6" fill="#234"/><filter id="b"><feGaussianBlur stdDeviation="1e6"/></filter><rect width="1e7" height="1e7" fill="#234" filter="url(#b)"/></svg>`,
      expect: ['ok'],
    },
    {
      name: 'slot: pattern of 0.01-unit tiles over the canvas',
      svg: doc(
        '<pattern id="p" width="0.01" height="0.01" patternUnits="userSpaceOnUse"><circle r="0.004" cx="0.005" cy="0.005"/></pattern><rect width="100" height="100" fill="url(#p)"/>',
      ),
      expect: ['ok'],
    },
    {
      name: 'slot: patterns nested three deep',
      svg: doc(
        '<pattern id="a" width="1" height="1" patternUnits="userSpaceOnUse"><circle r="0.4" cx="0.5" cy="0.5"/></pattern><pattern id="b" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="url(#a)"/></pattern><pattern id="c" width="0.5" height="0.5" patternUnits="userSpaceOnUse" patternTransform="scale(0.05)"><rect width="10" height="10" fill="url(#b)"/></pattern><rect width="100" height="100" fill="url(#c)"/>',
      ),
      expect: ['ok'],
    },
    {
      name: 'slot: text at font-size 10^6',
      svg: doc(
        '<text x="0" y="50" font-size="1000000">WWWW</text><text y="90" font-size="1e9" stroke="#000" stroke-width="1e6">M</text>',
      ),
      expect: ['ok', 'render_error'],
    },
    {
      name: 'NUL character',
      svg: doc(`<text y="9">a${String.fromCharCode(0)}b</text>`),
      expect: ['parse_error'],
      because: 'NUL',
    },
    {
      name: 'internal parameter entity',
      svg: `<!DOCTYPE svg [<!ENTITY % p "<!ENTITY c '#234'>"> %p;]>${doc('<rect width="30" height="30" fill="&c;"/>')}`,
      expect: ['ok'],
    },
    {
      name: 'external parameter entity over http',
      svg: `<!DOCTYPE svg [<!ENTITY % x SYSTEM "${p.httpBase}/pe.dtd"> %x;]>${doc('')}`,
      expect: ['parse_error'],
      because: 'external parameter entity',
    },
  ];
}
