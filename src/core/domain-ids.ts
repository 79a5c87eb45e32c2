// The artifact domains rubrica knows, by id: every record, rubric, rollout and command names
// a domain with one of these. Defined here, below every room, because records (core),
// artifacts, rubrics and the CLI all name domains without needing how a domain renders
// (src/domains/ owns that).

export const DOMAIN_IDS = [
  'svg',
  'python',
  'latex',
  'dot',
  'vega-lite',
  'html',
  'mermaid',
  'lilypond',
  'smiles',
] as const;
export type DomainId = (typeof DOMAIN_IDS)[number];

export function isDomainId(x: unknown): x is DomainId {
  return typeof x === 'string' && (DOMAIN_IDS as readonly string[]).includes(x);
}
