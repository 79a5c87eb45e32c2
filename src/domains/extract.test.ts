import { describe, expect, it } from 'vitest';
import { detectCompletionDomain, locateDomainCode } from './extract.ts';
import { detectDomain } from './registry.ts';

const PY = 'import matplotlib.pyplot as plt\nplt.plot([1, 2])';

describe('domain detection', () => {
  it('reads the fence language, then the content', () => {
    expect(detectCompletionDomain(`Here:\n\`\`\`python\n${PY}\n\`\`\``)).toBe('python');
    expect(detectCompletionDomain(`\`\`\`\n${PY}\n\`\`\``)).toBe('python');
    expect(
      detectCompletionDomain(
        '```json\n{"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "mark": "bar"}\n```',
      ),
    ).toBe('vega-lite');
    expect(detectCompletionDomain('```json\n{"a": 1}\n```')).toBeUndefined();
    expect(detectCompletionDomain('```\ndigraph G { a -> b }\n```')).toBe('dot');
    expect(detectCompletionDomain('```\nflowchart TD\n A --> B\n```')).toBe('mermaid');
    expect(detectCompletionDomain('```tex\n\\begin{tikzpicture}\\end{tikzpicture}\n```')).toBe(
      'latex',
    );
    expect(
      detectCompletionDomain('```html\n<!DOCTYPE html><html><body>hi</body></html>\n```'),
    ).toBe('html');
    expect(
      detectCompletionDomain('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
    ).toBeUndefined();
    expect(detectDomain('just words')).toBeUndefined();
    expect(detectCompletionDomain("```lilypond\n{ c'4 d' e' f' }\n```")).toBe('lilypond');
    expect(detectCompletionDomain('```\n\\version "2.24.0"\n\\relative c\' { c d e f }\n```')).toBe(
      'lilypond',
    );
  });

  it('ignores code inside the reasoning and prefers an <answer> block', () => {
    const c = `<think>\n\`\`\`dot\ndigraph { x }\n\`\`\`\n</think>\nFinal:\n\`\`\`python\n${PY}\n\`\`\``;
    expect(detectCompletionDomain(c)).toBe('python');
    const d = `\`\`\`python\nfirst = 1\n\`\`\`\n<answer>\n\`\`\`python\n${PY}\n\`\`\`\n</answer>\n\`\`\`python\nafter = 2\n\`\`\``;
    const got = locateDomainCode(d, 'python');
    expect(got.found && got.code.trim()).toBe(PY);
  });

  it('takes the last block of the domain, an unfenced HTML page, or says why not', () => {
    const two = `\`\`\`python\nold = 1\n\`\`\`\nbetter:\n\`\`\`python\n${PY}\n\`\`\``;
    const a = locateDomainCode(two, 'python');
    expect(a.found && a.code.trim()).toBe(PY);
    const page = locateDomainCode(
      'Sure! <!DOCTYPE html><html><body><h1>x</h1></body></html> done',
      'html',
    );
    expect(page.found && page.source).toBe('html_page');
    expect(page.found && page.code.endsWith('</html>')).toBe(true);
    const none = locateDomainCode('no code here', 'latex');
    expect(none.found).toBe(false);
    const bare = locateDomainCode('digraph { x -> y }', 'dot');
    expect(bare.found && bare.source).toBe('inline');
    expect(locateDomainCode('Sorry, digraph { x } is hard', 'dot').found).toBe(false);
    const cut = locateDomainCode('```python\nimport matplotlib.pyplot as plt\nplt.plo', 'python');
    expect(cut.found).toBe(true); // an open fence still yields its code; running it will tell
  });
});
