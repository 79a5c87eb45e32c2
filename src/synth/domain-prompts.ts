// What the rubric author is told about a domain other than SVG: its name, fence, how its
// picture is made and the rules that keep an ideal renderable (prompts/author/domains.md),
// plus the domain's shared vision standards (prompts/domains/<d>/criteria.md). Read once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DomainId } from '../core/domain-ids.ts';
import { loadDomainCriteria } from '../domains/criteria-file.ts';
import { sha256 } from '../rubric/prompt-file.ts';

export interface DomainAuthoring {
  domain: DomainId;
  name: string;
  fence: string;
  picture: string;
  /** The rules, as `- ` lines. */
  rules: string;
  /** The domain's shared vision standards, as `- ` lines. */
  criteria: string;
  /** Hash of everything above: part of the author version and cache keys. */
  version: string;
}

const FILE = fileURLToPath(new URL('../../prompts/author/domains.md', import.meta.url));
let sections: Map<string, Omit<DomainAuthoring, 'criteria' | 'version'>> | null = null;

/** Parses domains.md: `## id`, then `name:`/`fence:`/`picture:` lines, then `- ` rules. */
export function parseDomainAuthoring(
  text: string,
): Map<string, Omit<DomainAuthoring, 'criteria' | 'version'>> {
  const out = new Map<string, Omit<DomainAuthoring, 'criteria' | 'version'>>();
  for (const block of text.split(/^## /m).slice(1)) {
    const [head, ...lines] = block.split('\n');
    const id = head!.trim() as DomainId;
    const field = (k: string) => {
      const line = lines.find((l) => l.startsWith(`${k}:`));
      if (!line) throw new Error(`prompts/author/domains.md: ## ${id} has no "${k}:" line`);
      return line.slice(k.length + 1).trim();
    };
    const rules = lines.filter((l) => l.startsWith('- ')).join('\n');
    if (!rules) throw new Error(`prompts/author/domains.md: ## ${id} has no rules`);
    out.set(id, {
      domain: id,
      name: field('name'),
      fence: field('fence'),
      picture: field('picture'),
      rules,
    });
  }
  return out;
}

/** A domain's shared vision criteria as the `- question` lines the RULER author is shown. */
export function visionStandards(domain: DomainId): string {
  return loadDomainCriteria(domain)
    .vision.map((c) => `- ${c.question}`)
    .join('\n');
}

export function domainAuthoring(domain: Exclude<DomainId, 'svg'>): DomainAuthoring {
  sections ??= parseDomainAuthoring(readFileSync(FILE, 'utf8'));
  const s = sections.get(domain);
  if (!s) throw new Error(`prompts/author/domains.md has no section for ${domain}`);
  const criteria = visionStandards(domain);
  return { ...s, criteria, version: sha256(JSON.stringify([s, criteria])).slice(0, 16) };
}
