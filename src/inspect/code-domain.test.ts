import { describe, expect, it } from 'vitest';
import { codeDomain } from './code-domain.ts';

describe('codeDomain', () => {
  it('takes a known declared domain, refuses an unknown one, detects when none is given', () => {
    expect(codeDomain('<svg/>', 'python')).toBe('python');
    expect(codeDomain('x', 'cobol')).toBeNull();
    expect(codeDomain('digraph { a -> b }', null)).toBe('dot');
    expect(codeDomain('import matplotlib.pyplot as plt\nplt.plot([1])', undefined)).toBe('python');
    expect(codeDomain('{"$schema": "https://vega.github.io/schema/vega-lite/v5.json"}', '')).toBe(
      'vega-lite',
    );
    expect(codeDomain('\\begin{tikzpicture}\\end{tikzpicture}', 'auto')).toBe('latex');
    expect(codeDomain('graph TD\n A --> B', null)).toBe('mermaid');
    // A page holding an inline icon is a page; a fenced SVG answer stays svg.
    expect(codeDomain('<!doctype html><html><body><svg></svg></body></html>', null)).toBe('html');
    expect(codeDomain('```html\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n```', null)).toBe(
      'svg',
    );
    expect(codeDomain('```python\nprint(1)\n```', null)).toBe('python');
    expect(codeDomain('<svg xmlns="http://www.w3.org/2000/svg"/>', null)).toBe('svg');
    expect(codeDomain('plain words', null)).toBe('svg');
  });
});
