import { describe, expect, it } from 'vitest';
import { timed } from '../../test/support/timed.ts';
import { detectDomain } from '../domains/registry.ts';
import { elementSpans, markerSpans } from './element-spans.ts';
import { rubricTerms } from './judge-text-rubric.ts';
import { svgTextSources } from './judge-text-sources.ts';
import { askedCount } from './prompt-counts.ts';

describe('markerSpans and elementSpans', () => {
  it('find spans in document order, skipping self-closing and unclosed elements', () => {
    const cdata = [...markerSpans('a<![CDATA[x]]>b<![CDATA[y]]>c<![CDATA[z', '<![CDATA[', ']]>')];
    expect(cdata.map((s) => s.inner)).toEqual(['x', 'y']);
    const svg =
      '<svg><TITLE lang="en">T</TITLE><desc/><text x="1">a<tspan>b</tspan></text ><desc>D</desc><title>open';
    expect([...elementSpans(svg, ['title', 'desc'])]).toEqual([
      { name: 'title', inner: 'T' },
      { name: 'desc', inner: 'D' },
    ]);
    expect([...elementSpans(svg, ['text'])]).toEqual([
      { name: 'text', inner: 'a<tspan>b</tspan>' },
    ]);
    // <textPath> is not <text>.
    expect([...elementSpans('<textPath>p</textPath>', ['text'])]).toEqual([]);
  });
});

// Each of these answers held the parent's event loop for seconds with the former lazy regexes
// (at a fifth of these sizes); the checks run on every rollout in `serve`.
describe('the checks on a hostile answer', () => {
  it('read text sources from repeated unclosed CDATA, <text> and <title> in linear time', () => {
    for (const body of [
      '><![CDATA['.repeat(100_000),
      `a${'<TEXT\u0000X'.repeat(100_000)}</TEXT>a<TEXT></TEXT>`,
      `E${'<DESC\u0000L'.repeat(100_000)}`,
      '<'.repeat(1_000_000),
    ]) {
      const { value, ms } = timed(() => svgTextSources(`<svg>${body}</svg>`));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(2_000);
    }
  });

  it('keeps what the sources were: CDATA out of the markup, title, desc and text decoded', () => {
    const sources = svgTextSources(
      '<svg><title>A &amp; B</title><![CDATA[<text>hidden</text>]]><text>Score: <tspan>5</tspan></text><desc>d</desc></svg>',
    );
    expect(sources.filter((s) => s.where !== 'markup')).toEqual([
      { where: 'cdata', text: '<text>hidden</text>' },
      { where: 'title', text: 'A & B' },
      { where: 'desc', text: 'd' },
      { where: 'text', text: 'Score:  5 ' },
    ]);
  });

  it('detects a domain in an answer of blank lines in linear time', () => {
    const { value, ms } = timed(() => detectDomain(`${'\n'.repeat(500_000)}numpy`));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(1_000);
    expect(detectDomain('\n\n  import numpy as np\nplt.plot()')).toBe('python');
  });

  it('reads counts from a prompt of markup-like junk, and rubric terms, in linear time', () => {
    for (const prompt of ['<'.repeat(300_000), `${'-'.repeat(300_000)}\t-=\u0000`]) {
      const { value, ms } = timed(() => askedCount(prompt));
      expect(value).toBeNull();
      expect(ms).toBeLessThan(1_000);
    }
    expect(askedCount('draw 3 cats, width="500"')).toBe(3);
    const { value, ms } = timed(() => rubricTerms([`${'!'.repeat(300_000)}\u0000!`], 'p'));
    expect(ms).toBeLessThan(1_000);
    expect(value).toEqual([]);
  });
});
