// The domain a piece of code (a curation candidate, a prompt's reference solution) is
// executed, judged and re-written in: its record's `domain` when rubrica knows that id; else
// what its code says — the fences of a completion
// (as scoring detects them), else the content of bare code (a DOT graph, a matplotlib
// script, a Vega-Lite spec, …); else svg, as before domains existed.
import { type DomainId, isDomainId } from '../core/domain-ids.ts';
import { detectDomain } from '../domains/registry.ts';
import { resolveDomain } from './inspect.ts';

/**
 * The code's domain: `declared` when it is a known id, detected when absent; null when
 * `declared` names a domain rubrica does not know (the code cannot be executed).
 * @example
 * ```ts
 * codeDomain('digraph { a -> b }', null); // 'dot'
 * codeDomain('<svg/>', 'python'); // 'python' (declared wins; it will fail as no_code)
 * ```
 */
export function codeDomain(code: string, declared: string | null | undefined): DomainId | null {
  if (declared !== null && declared !== undefined && declared !== '' && declared !== 'auto') {
    return isDomainId(declared) ? declared : null;
  }
  // A completion with fences: as scoring decides (an SVG answer stays svg).
  if (code.includes('```')) return resolveDomain(code, 'auto', /<svg[\s>]/i.test(code));
  // Bare code: the content decides (an HTML page holding an inline icon is html).
  return detectDomain(code) ?? 'svg';
}
