// The domain-shared criteria of a PrismaForge rubric: a reusable list per artifact domain
// that every sample of the domain is checked against. They come from the domain's one
// criteria file, prompts/domains/<domain>/criteria.md (format: prompts/domains/README.md),
// the same file the RULER author reads: `## code` items become code items, `## vision`
// items vision items, each `shared_<key>` with its weight and a count of 1. There is no
// fallback: a domain rubrica does not know, or one whose file is missing, is an error
// (`missing_shared_criteria`), never another domain's list or a generic one. Read once per
// process; the file's hash is part of the rubric's version, so editing a list
// re-synthesises the rubrics built on it.

import { RubricaError } from '../core/errors.ts';
import {
  DomainCriteriaError,
  type DomainCriterion,
  parseDomainCriteria,
  readDomainCriteriaText,
} from '../domains/criteria-file.ts';
import type { Modality, PrismaItem } from './prisma-schema.ts';
import { sha256 } from './prompt-file.ts';

/**
 * A domain's shared-criteria file is malformed (code `bad_shared_criteria`) or missing, or
 * the domain is unknown (`missing_shared_criteria`).
 */
export class SharedCriteriaError extends RubricaError<
  'bad_shared_criteria' | 'missing_shared_criteria'
> {}

/**
 * One domain's shared code and vision criteria, with the file they came from and its version hash.
 */
export interface SharedCriteria {
  domain: string;
  /** Which file the list came from (relative to prompts/). */
  source: string;
  version: string;
  code: PrismaItem[];
  vision: PrismaItem[];
}

/**
 * Where a domain's shared list lives, relative to prompts/: its one criteria file (kept as a
 * list for callers of the former candidates lookup; there is no fallback any more).
 */
export function sharedCriteriaCandidates(domain: string): string[] {
  return [`domains/${domain}/criteria.md`];
}

const loaded = new Map<string, SharedCriteria>();

/**
 * Builds a domain's shared PrismaForge items from the text of its criteria.md (`source`
 * names the file in messages). Throws SharedCriteriaError `bad_shared_criteria` when a line
 * is out of format.
 */
export function parseSharedCriteria(domain: string, source: string, text: string): SharedCriteria {
  let parsed: ReturnType<typeof parseDomainCriteria>;
  try {
    parsed = parseDomainCriteria(source, text);
  } catch (e) {
    if (e instanceof DomainCriteriaError)
      throw new SharedCriteriaError('bad_shared_criteria', e.message);
    throw e;
  }
  const items = (m: Modality, list: DomainCriterion[]) =>
    list.map(
      (s): PrismaItem => ({
        key: `shared_${s.key}`,
        modality: m,
        origin: 'shared',
        criterion: s.question,
        weight: s.weight,
        count: 1,
      }),
    );
  return {
    domain,
    source,
    version: sha256(text).slice(0, 16),
    code: items('code', parsed.code),
    vision: items('vision', parsed.vision),
  };
}

/**
 * A domain's shared PrismaForge criteria, from prompts/domains/<domain>/criteria.md; read
 * once and cached. Throws SharedCriteriaError: `missing_shared_criteria` for an unknown
 * domain or a missing file, `bad_shared_criteria` for a file that does not parse.
 */
export function loadSharedCriteria(domain: string): SharedCriteria {
  let hit = loaded.get(domain);
  if (hit) return hit;
  let file: { source: string; text: string };
  try {
    file = readDomainCriteriaText(domain);
  } catch (e) {
    if (e instanceof DomainCriteriaError)
      throw new SharedCriteriaError('missing_shared_criteria', e.message);
    throw e;
  }
  hit = parseSharedCriteria(domain, file.source, file.text);
  loaded.set(domain, hit);
  return hit;
}
