// The artifact domains rubrica knows, by id: every record, rubric, rollout and command names
// a domain with one of these. Defined here, below every room, because records (core),
// artifacts, rubrics and the CLI all name domains without needing how a domain renders
// (src/domains/ owns that).

/** Every visual-code domain rubrica scores, SVG first (docs/domains.md). */
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
/** One of DOMAIN_IDS. */
export type DomainId = (typeof DOMAIN_IDS)[number];

/** True when `x` is a known domain id (for flags, request fields and records read from files). */
export function isDomainId(x: unknown): x is DomainId {
  return typeof x === 'string' && (DOMAIN_IDS as readonly string[]).includes(x);
}
