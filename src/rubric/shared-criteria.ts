// The domain-shared criteria of a PrismaForge rubric: a reusable list per artifact domain
// that every sample of the domain is checked against. The domain's own folder
// (prompts/domains/<domain>/criteria.json, written by whoever owns the domain) wins over
// rubrica's PrismaForge defaults (prompts/prisma/<domain>.json), and a domain with neither
// gets prompts/prisma/default.json. Read once per process; the file's hash is part of the
// rubric's version, so editing a list re-synthesises the rubrics built on it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RubricaError } from '../core/errors.ts';
import type { Modality, PrismaItem } from './prisma-schema.ts';
import { sha256 } from './prompt-file.ts';

const PROMPTS = fileURLToPath(new URL('../../prompts/', import.meta.url));

const SharedItemSchema = z.object({
  key: z.string().regex(/^[a-z0-9_]+$/),
  criterion: z.string().min(1),
  weight: z.number().positive(),
  count: z.number().int().min(1).optional(),
});
const SharedFileSchema = z.object({
  about: z.string().optional(),
  code: z.array(SharedItemSchema),
  vision: z.array(SharedItemSchema),
});

/** A domain's shared-criteria file is missing or malformed (code `bad_shared_criteria`). */
export class SharedCriteriaError extends RubricaError<'bad_shared_criteria'> {}

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

/** Where a domain's shared list lives, first match wins (relative to prompts/). */
export function sharedCriteriaCandidates(domain: string): string[] {
  return [`domains/${domain}/criteria.json`, `prisma/${domain}.json`, 'prisma/default.json'];
}

const loaded = new Map<string, SharedCriteria>();

export function parseSharedCriteria(domain: string, source: string, text: string): SharedCriteria {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SharedCriteriaError('bad_shared_criteria', `${source} is not valid JSON`);
  }
  const parsed = SharedFileSchema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new SharedCriteriaError(
      'bad_shared_criteria',
      `${source}: ${i.path.join('.')}: ${i.message}`,
    );
  }
  const items = (m: Modality) =>
    parsed.data[m].map(
      (s): PrismaItem => ({
        key: `shared_${s.key}`,
        modality: m,
        origin: 'shared',
        criterion: s.criterion,
        weight: s.weight,
        count: s.count ?? 1,
      }),
    );
  return {
    domain,
    source,
    version: sha256(text).slice(0, 16),
    code: items('code'),
    vision: items('vision'),
  };
}

/**
 * A domain's shared PrismaForge criteria, from the first of prompts/domains/<domain>/
 * criteria.json, prompts/prisma/<domain>.json and prompts/prisma/default.json; read once and
 * cached. Throws SharedCriteriaError for a domain that is not a plain name or a file that
 * does not parse.
 */
export function loadSharedCriteria(domain: string): SharedCriteria {
  let hit = loaded.get(domain);
  if (hit) return hit;
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(domain)) {
    throw new SharedCriteriaError('bad_shared_criteria', `domain "${domain}" is not a plain name`);
  }
  const source = sharedCriteriaCandidates(domain).find((p) => existsSync(PROMPTS + p))!;
  hit = parseSharedCriteria(domain, source, readFileSync(PROMPTS + source, 'utf8'));
  loaded.set(domain, hit);
  return hit;
}
