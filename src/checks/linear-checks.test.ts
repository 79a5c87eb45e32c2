import { describe, expect, it } from 'vitest';
import { timed } from '../../test/support/timed.ts';
import { detectDomain } from '../domains/registry.ts';
import { jsonStrings } from './judge-text.ts';
import { rubricTerms } from './judge-text-rubric.ts';
import { svgTextSources } from './judge-text-sources.ts';
import { askedCount } from './prompt-counts.ts';

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

  it('detects a DOT graph after comments, and an answer of many block comments in linear time', () => {
    expect(detectDomain('// a\n/* b */\n  strict digraph G {\n a -> b }')).toBe('dot');
    expect(detectDomain('/* a */ /* b */ graph { a -- b }')).toBe('dot');
    expect(detectDomain('/* never closed graph { a -- b }')).toBeUndefined();
    // recheck's attack with its braces taken out, so that no graph opens: 2 KB of it did not
    // finish in 120 s on the former single pattern (exponential), in the parent.
    const attack = `/${'/\n/*/GRAPH*///*///GRAPHa\n/'.repeat(20_000)}\n*/GRAPH`;
    const { ms } = timed(() => detectDomain(attack));
    expect(ms).toBeLessThan(1_000);
  });

  it('reads the JSON strings of a vega-lite answer, and a long escaped run, in linear time', () => {
    expect(jsonStrings('{"a": "b\\"c", "n": 1, "t": "x"}')).toEqual([
      '"a"',
      '"b\\"c"',
      '"n"',
      '"t"',
      '"x"',
    ]);
    expect(jsonStrings('"open\n"next"')).toEqual(['"next"']);
    expect(jsonStrings(`"${'x'.repeat(2_001)}"`)).toEqual([]);
    expect(jsonStrings(`"${'x'.repeat(2_000)}"`)).toHaveLength(1);
    const { ms } = timed(() => jsonStrings('"\\'.repeat(500_000)));
    expect(ms).toBeLessThan(1_000);
  });
});
