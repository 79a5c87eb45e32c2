import { describe, expect, it } from 'vitest';
import { timed } from '../../test/support/timed.ts';
import { stripCodeComments } from './code-comments.ts';
import { elementSpans, markerSpans } from './element-spans.ts';

describe('markerSpans and elementSpans', () => {
  it('find spans in document order: self-closing ones marked, unclosed ones left out', () => {
    const cdata = [...markerSpans('a<![CDATA[x]]>b<![CDATA[y]]>c<![CDATA[z', '<![CDATA[', ']]>')];
    expect(cdata.map((s) => s.inner)).toEqual(['x', 'y']);
    const svg =
      '<svg><TITLE lang="en">T</TITLE><desc/><text x="1">a<tspan>b</tspan></text ><desc>D</desc><title>open';
    const read = (names: string[]) =>
      [...elementSpans(svg, names)].map((s) => [
        s.name,
        s.inner,
        s.selfClosing,
        svg.slice(s.start, s.end),
      ]);
    expect(read(['title', 'desc'])).toEqual([
      ['title', 'T', false, '<TITLE lang="en">T</TITLE>'],
      ['desc', '', true, '<desc/>'],
      ['desc', 'D', false, '<desc>D</desc>'],
    ]);
    expect(read(['text'])).toEqual([
      ['text', 'a<tspan>b</tspan>', false, '<text x="1">a<tspan>b</tspan></text >'],
    ]);
    // <textPath> is not <text>.
    expect([...elementSpans('<textPath>p</textPath>', ['text'])]).toEqual([]);
  });
});

describe('stripCodeComments on SVG', () => {
  it('drops comments, metadata and foreignObject, and an unclosed one stays', () => {
    const r = stripCodeComments(
      '<svg><!-- a --><metadata><x/></metadata><rect/><foreignObject/><foreignObject><p>b</p></foreignObject><metadata>open</svg>',
      'svg',
    );
    expect(r.code).toBe('<svg><rect/><metadata>open</svg>');
    expect(r.comments).toEqual([
      '<!-- a -->',
      '<metadata><x/></metadata>',
      '<foreignObject/>',
      '<foreignObject><p>b</p></foreignObject>',
    ]);
  });

  it('reads repeated unclosed metadata and foreignObject openers in linear time', () => {
    for (const body of [
      'METADATA/><METADATA>D'.repeat(60_000),
      'FOREIGNOBJECT><FOREIGNOBJECT/B'.repeat(50_000),
    ]) {
      const { ms } = timed(() => stripCodeComments(`<svg><${body}</svg>`, 'svg'));
      expect(ms).toBeLessThan(2_000);
    }
  });
});
