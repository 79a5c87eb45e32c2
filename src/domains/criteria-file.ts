// Reads a domain's shared criteria list (prompts/domains/<domain>/criteria.md, format in
// prompts/domains/README.md): `## code` and `## vision` sections of `- key (weight): question`
// lines. Used where a prompt to a model needs the domain's standards (rubric synthesis).
// A line that does not fit the format is an error naming the file and line, not skipped.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DomainId } from '../core/domain-ids.ts';
import { RubricaError } from '../core/errors.ts';

export interface DomainCriterion {
  key: string;
  weight: number;
  question: string;
}

export interface DomainCriteria {
  code: DomainCriterion[];
  vision: DomainCriterion[];
}

export class DomainCriteriaError extends RubricaError<'bad_domain_criteria'> {
  constructor(message: string) {
    super('bad_domain_criteria', message);
  }
}

const ITEM = /^-\s+([a-z0-9_]+)\s+\((\d+(?:\.\d+)?)\):\s+(\S.*)$/;

export function parseDomainCriteria(name: string, text: string): DomainCriteria {
  const out: DomainCriteria = { code: [], vision: [] };
  let section: keyof DomainCriteria | null = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const heading = /^##\s+(\w+)$/.exec(line);
    if (heading) {
      const h = heading[1]!.toLowerCase();
      if (h !== 'code' && h !== 'vision')
        throw new DomainCriteriaError(`${name}:${i + 1}: unknown section "${heading[1]}"`);
      section = h;
      return;
    }
    const m = ITEM.exec(line);
    if (!m || !section)
      throw new DomainCriteriaError(
        `${name}:${i + 1}: expected "- key (weight): question" under ## code or ## vision`,
      );
    out[section].push({ key: m[1]!, weight: Number(m[2]), question: m[3]! });
  });
  return out;
}

const PROMPTS = fileURLToPath(new URL('../../prompts/', import.meta.url));
const loaded = new Map<DomainId, DomainCriteria>();

/** The domain's shared criteria, read once per process. */
export function loadDomainCriteria(domain: DomainId): DomainCriteria {
  let c = loaded.get(domain);
  if (!c) {
    const name = `domains/${domain}/criteria.md`;
    c = parseDomainCriteria(name, readFileSync(PROMPTS + name, 'utf8'));
    loaded.set(domain, c);
  }
  return c;
}
