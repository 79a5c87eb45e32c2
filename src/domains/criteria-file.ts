// Reads a domain's shared criteria list (prompts/domains/<domain>/criteria.md, format in
// prompts/domains/README.md): an optional `# title` and prose, then `## code` and `## vision`
// sections of `- key (weight): question` lines. The one source of a domain's standards: the
// RULER author reads it (src/synth/domain-prompts.ts) and PrismaForge's shared items are
// built from it (src/rubric/shared-criteria.ts). A line that does not fit the format is an
// error naming the file and line, not skipped; a domain without its file is an error too
// (`missing_domain_criteria`), never another domain's list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DomainId, isDomainId } from '../core/domain-ids.ts';
import { RubricaError } from '../core/errors.ts';

/** One shared criterion: a stable key, a weight of 1–3 and a yes/no question. */
export interface DomainCriterion {
  key: string;
  weight: number;
  question: string;
}

/** A domain's shared criteria: those judged on the code and those judged on the picture. */
export interface DomainCriteria {
  code: DomainCriterion[];
  vision: DomainCriterion[];
}

/**
 * A criteria file that does not parse (`bad_domain_criteria`), or a domain without one
 * (`missing_domain_criteria`: an unknown domain, or a known one whose file is gone).
 */
export class DomainCriteriaError extends RubricaError<
  'bad_domain_criteria' | 'missing_domain_criteria'
> {
  constructor(
    message: string,
    code: 'bad_domain_criteria' | 'missing_domain_criteria' = 'bad_domain_criteria',
  ) {
    super(code, message);
  }
}

const ITEM = /^-\s+([a-z0-9_]+)\s+\((\d+(?:\.\d+)?)\):\s+(\S.*)$/;

/**
 * Parses the text of a criteria file (`name` is used in messages). Both sections must have
 * at least one item and keys are unique within the file.
 */
export function parseDomainCriteria(name: string, text: string): DomainCriteria {
  const out: DomainCriteria = { code: [], vision: [] };
  const keys = new Set<string>();
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
    // Before the first section: a title and prose about the list, for its readers.
    if (!section && !line.startsWith('-')) return;
    const m = ITEM.exec(line);
    if (!m || !section)
      throw new DomainCriteriaError(
        `${name}:${i + 1}: expected "- key (weight): question" under ## code or ## vision`,
      );
    if (keys.has(m[1]!)) throw new DomainCriteriaError(`${name}:${i + 1}: key "${m[1]}" twice`);
    keys.add(m[1]!);
    const weight = Number(m[2]);
    if (!(weight > 0)) throw new DomainCriteriaError(`${name}:${i + 1}: weight must be > 0`);
    out[section].push({ key: m[1]!, weight, question: m[3]! });
  });
  for (const s of ['code', 'vision'] as const)
    if (out[s].length === 0) throw new DomainCriteriaError(`${name}: no items under ## ${s}`);
  return out;
}

const PROMPTS = fileURLToPath(new URL('../../prompts/', import.meta.url));

/** The criteria file of a domain, relative to prompts/. */
export function domainCriteriaFile(domain: DomainId): string {
  return `domains/${domain}/criteria.md`;
}

/** A criteria file's name (relative to prompts/) and its text, as read. */
export interface DomainCriteriaText {
  source: string;
  text: string;
}

const texts = new Map<string, DomainCriteriaText>();

/**
 * The text of a domain's criteria file, read once per process (`root`, the prompts folder,
 * is rubrica's own unless a test gives another). Throws DomainCriteriaError
 * `missing_domain_criteria` for a domain rubrica does not know or whose file is missing.
 */
export function readDomainCriteriaText(domain: string, root = PROMPTS): DomainCriteriaText {
  const memo = `${root}\u0000${domain}`;
  let t = texts.get(memo);
  if (t) return t;
  if (!isDomainId(domain))
    throw new DomainCriteriaError(
      `no shared criteria for unknown domain "${domain}"`,
      'missing_domain_criteria',
    );
  const source = domainCriteriaFile(domain);
  let text: string;
  try {
    text = readFileSync(join(root, source), 'utf8');
  } catch (e) {
    throw new DomainCriteriaError(
      `${join(root, source)} cannot be read (${(e as NodeJS.ErrnoException).code ?? e}): every domain needs its shared criteria file`,
      'missing_domain_criteria',
    );
  }
  t = { source, text };
  texts.set(memo, t);
  return t;
}

const loaded = new Map<string, DomainCriteria>();

/** The domain's shared criteria, read and parsed once per process. */
export function loadDomainCriteria(domain: DomainId): DomainCriteria {
  let c = loaded.get(domain);
  if (!c) {
    const { source, text } = readDomainCriteriaText(domain);
    c = parseDomainCriteria(source, text);
    loaded.set(domain, c);
  }
  return c;
}
