// The code of the per-domain PrismaForge run (domain-run.slow.test.ts): a tag a code judge
// looks for, and how it is written into each domain's code as a comment (or, for Vega-Lite
// JSON, a description) — the rule the judge and generator doubles follow.
import type { DomainId } from '../../src/core/domain-ids.ts';

/** Writes `tag` into `code` of `domain` without changing what it draws. */
export function withTag(domain: DomainId, code: string, tag: string): string {
  switch (domain) {
    case 'svg':
      return code.replace(/<svg\b[^>]*>/, (m) => `${m}<!-- ${tag} -->`);
    case 'python':
      return `# ${tag}\n${code}`;
    case 'latex':
      return `% ${tag}\n${code}`;
    case 'dot':
      return `// ${tag}\n${code}`;
    case 'mermaid':
      return `%% ${tag}\n${code}`;
    case 'html':
      return code.replace(/<body([^>]*)>/i, (m) => `${m}<!-- ${tag} -->`);
    case 'vega-lite':
      return JSON.stringify({ description: tag, ...JSON.parse(code) });
    default:
      throw new Error(`no tag rule for ${domain}`);
  }
}
