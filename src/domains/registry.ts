// The domains rubrica knows: fence words that name each, a content test for unlabelled
// code, and where its shared criteria live. Detection is cheap and deterministic (no
// parsing beyond a JSON.parse for charts): extraction calls it on every fence.
import type { DomainId } from '../core/domain-ids.ts';
import type { Domain } from './types.ts';

const criteria = (id: DomainId) => `prompts/domains/${id}/criteria.md`;

const MERMAID_START =
  /^\s*(?:%%[^\n]*\n\s*)*(?:graph|flowchart|sequenceDiagram|classDiagram|stateDiagram(?:-v2)?|erDiagram|gantt|pie|journey|mindmap|timeline|gitGraph|quadrantChart|xychart-beta|sankey-beta|block-beta|requirementDiagram)\b/;
const DOT_HEAD = /^(?:strict\s+)?(?:di)?graph\b[^{\n]*\{/i;

/**
 * Whether the code opens as a DOT graph after blank space and comments. The comments are
 * skipped by hand: the single pattern this replaces (`^\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*…`)
 * could end a lazy block comment at any later `*\/`, exponential in their number (recheck), and
 * it ran in the parent on every completion.
 */
function startsAsDot(code: string): boolean {
  let i = 0;
  for (;;) {
    while (i < code.length && /\s/.test(code[i]!)) i++;
    if (code.startsWith('//', i)) {
      const nl = code.indexOf('\n', i);
      if (nl < 0) return false;
      i = nl + 1;
    } else if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else break;
  }
  return DOT_HEAD.test(code.slice(i));
}

function looksLikeVegaLite(code: string): number {
  const t = code.trim();
  if (!t.startsWith('{')) return 0;
  if (/"\$schema"\s*:\s*"[^"]*vega-lite/.test(t)) return 1;
  if (/"\$schema"\s*:\s*"[^"]*\/vega\/v\d/.test(t)) return 0.9; // a Vega spec: same runtime
  return /"mark"\s*:/.test(t) && /"encoding"\s*:|"layer"\s*:|"data"\s*:/.test(t) ? 0.7 : 0;
}

export const DOMAINS: Readonly<Record<DomainId, Domain>> = Object.freeze({
  svg: {
    id: 'svg',
    fenceLangs: ['svg', 'xml', 'image/svg+xml'],
    detect: (c: string) => (/<svg[\s>]/i.test(c) ? 0.8 : 0),
    criteriaPath: criteria('svg'),
  },
  python: {
    id: 'python',
    fenceLangs: ['python', 'py', 'python3', 'matplotlib'],
    detect: (c: string) =>
      // [ \t], not \s: with /m a \s* ran on over every following blank line from each line
      // start (quadratic on an answer of newlines, in the parent).
      /^[ \t]*(?:import|from)[ \t]+(?:matplotlib|pandas|seaborn|numpy)\b/m.test(c)
        ? 0.9
        : /\bplt\.\w+\(/.test(c)
          ? 0.6
          : 0,
    criteriaPath: criteria('python'),
  },
  latex: {
    id: 'latex',
    fenceLangs: ['latex', 'tex', 'tikz', 'pgfplots'],
    detect: (c: string) =>
      /\\documentclass\b|\\begin\{(?:tikzpicture|axis)\}/.test(c)
        ? 0.9
        : /\\tikz\b/.test(c)
          ? 0.6
          : 0,
    criteriaPath: criteria('latex'),
  },
  dot: {
    id: 'dot',
    fenceLangs: ['dot', 'graphviz', 'gv'],
    detect: (c: string) => (startsAsDot(c) ? 0.9 : 0),
    criteriaPath: criteria('dot'),
  },
  'vega-lite': {
    id: 'vega-lite',
    fenceLangs: ['vega-lite', 'vegalite', 'vega', 'vl'],
    detect: looksLikeVegaLite,
    criteriaPath: criteria('vega-lite'),
  },
  html: {
    id: 'html',
    fenceLangs: ['html', 'htm', 'xhtml'],
    detect: (c: string) => (/<!doctype\s+html|<html[\s>]|<body[\s>]/i.test(c) ? 0.9 : 0),
    criteriaPath: criteria('html'),
  },
  mermaid: {
    id: 'mermaid',
    fenceLangs: ['mermaid', 'mmd'],
    detect: (c: string) => (MERMAID_START.test(c) ? 0.9 : 0),
    criteriaPath: criteria('mermaid'),
  },
  lilypond: {
    id: 'lilypond',
    fenceLangs: ['lilypond', 'ly'],
    detect: (c: string) =>
      /\\version\s+"\d|\\relative\s+[a-g]|\\new\s+(?:Staff|PianoStaff|ChoirStaff)\b/.test(c)
        ? 0.9
        : 0,
    criteriaPath: criteria('lilypond'),
  },
  smiles: {
    id: 'smiles',
    fenceLangs: ['smiles', 'smi'],
    // A SMILES line looks like many other things (words, formulas): only a fence or
    // --domain names this domain.
    detect: () => 0,
    criteriaPath: criteria('smiles'),
  },
});

/** The domain a fence info word names, if any ('json' is decided by content). */
export function domainOfFence(lang: string): DomainId | undefined {
  for (const d of Object.values(DOMAINS)) if (d.fenceLangs.includes(lang)) return d.id;
  return undefined;
}

/** The most likely domain of unlabelled code (ties: the order of DOMAIN_IDS), if any. */
export function detectDomain(code: string): DomainId | undefined {
  let best: DomainId | undefined;
  let score = 0.5; // below this, nothing is claimed
  for (const d of Object.values(DOMAINS)) {
    const s = d.detect(code);
    if (s > score) {
      best = d.id;
      score = s;
    }
  }
  return best;
}
