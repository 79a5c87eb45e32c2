// The code of the per-domain PrismaForge run (domain-run.slow.test.ts): a tag a code judge
// looks for, and how it is written into each domain's code where it draws nothing but the
// code judge still reads it — not in a comment, which the code judge no longer sees (issue
// 41: src/judge/code-for-judge.ts) — the rule the judge and generator doubles follow.
import type { DomainId } from '../../src/core/domain-ids.ts';

/** Writes `tag` into `code` of `domain` without changing what it draws. */
export function withTag(domain: DomainId, code: string, tag: string): string {
  switch (domain) {
    case 'svg':
      return code.replace(/<svg\b[^>]*>/, (m) => `${m}<desc>${tag}</desc>`);
    case 'python':
      return `"""${tag}"""\n${code}`;
    case 'latex':
      return `\\def\\rubricatag{${tag}}\n${code}`;
    case 'dot':
      return code.replace(/\{/, `{\n  comment="${tag}";`);
    case 'mermaid': {
      const [first, ...rest] = code.split('\n');
      return [first, `  accDescr: ${tag}`, ...rest].join('\n');
    }
    case 'html':
      return /<head[^>]*>/i.test(code)
        ? code.replace(/<head[^>]*>/i, (m) => `${m}<meta name="description" content="${tag}">`)
        : code.replace(/<body([^>]*)>/i, (m) => `${m}<meta name="description" content="${tag}">`);
    case 'vega-lite':
      return JSON.stringify({ description: tag, ...JSON.parse(code) });
    default:
      throw new Error(`no tag rule for ${domain}`);
  }
}
