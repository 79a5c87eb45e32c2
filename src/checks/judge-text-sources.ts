// Where an SVG answer keeps text, for the judge_text check: read from the source, so text
// that is hidden, tiny, faint, off-canvas or never rendered (rubrica's sanitiser drops
// comments, <metadata> and <foreignObject>) is seen as well as what is drawn. Entities are
// decoded (`&lt;|im_end|&gt;` is what a reader of the picture's text would see).
import { stripCodeComments } from '../artifact/code-comments.ts';
import { elementSpans, markerSpans } from '../artifact/element-spans.ts';

export interface TextSource {
  /** text, title, desc, comment, metadata, foreignObject, cdata, attribute NAME */
  where: string;
  text: string;
}

// Attributes whose values are data, not words (paths, numbers lists, links, base64 images).
const DATA_ATTRS = new Set([
  'd',
  'points',
  'transform',
  'viewbox',
  'href',
  'xlink:href',
  'src',
  'values',
  'keytimes',
  'keysplines',
  'path',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'width',
  'height',
  'xmlns',
  'xmlns:xlink',
  'version',
  'style',
  'class',
]);

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

const stripTags = (s: string) => s.replace(/<[^<>]{0,2000}>/g, ' ');

export function svgTextSources(svg: string): TextSource[] {
  const out: TextSource[] = [];
  const hidden = stripCodeComments(svg, 'svg');
  for (const c of hidden.comments) {
    const where = c.startsWith('<!--')
      ? 'comment'
      : /^<metadata/i.test(c)
        ? 'metadata'
        : 'foreignObject';
    // Raw (a marker written as a tag) and as words (markup stripped, entities decoded).
    out.push({ where, text: `${c}\n${decode(stripTags(c))}` });
  }
  const body = hidden.code;
  // Markers written straight into the markup (`</answer>`, `<think>`, `<|im_end|>`) are
  // tags to an XML reader; stripTags below would hide them.
  out.push({ where: 'markup', text: body });
  let noCdata = '';
  let at = 0;
  for (const span of markerSpans(body, '<![CDATA[', ']]>')) {
    out.push({ where: 'cdata', text: span.inner });
    noCdata += `${body.slice(at, span.start)} `;
    at = span.end;
  }
  noCdata += body.slice(at);
  for (const { name, inner, selfClosing } of elementSpans(noCdata, ['title', 'desc']))
    if (!selfClosing) out.push({ where: name, text: decode(stripTags(inner)) });
  for (const { inner, selfClosing } of elementSpans(noCdata, ['text']))
    if (!selfClosing) out.push({ where: 'text', text: decode(stripTags(inner)) });
  for (const m of noCdata.matchAll(/\s([a-z_][\w:.-]{0,40})\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const name = m[1]!.toLowerCase();
    if (DATA_ATTRS.has(name)) continue;
    const value = decode(m[2] ?? m[3] ?? '');
    if (/[a-z<\\`~{/]/i.test(value)) out.push({ where: `attribute ${name}`, text: value });
  }
  return out;
}
