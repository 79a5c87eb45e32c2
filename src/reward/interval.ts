// A reward's interval from its criterion tree: every leaf read with a distribution (expected
// scoring) is a random variable over its allowed answers, every other leaf a point, the leaves
// independent; each group's value is clamp01(Σ w·v / Σ w⁺) (tree.ts), so the reward's own
// distribution follows by convolving children group by group. The interval is the central
// one at `level` (at most (1−L)/2 of the mass outside on each side). Supports are merged on a 1e-4 grid (well below the
// scale's 1/9 step) so a rubric of many items stays a few thousand points. A greedy reward is
// a point: [r, r]; only a calibration (conformal.ts) widens it then.
import type { CriterionLeaf, CriterionNode } from '../core/criteria.ts';

/** A discrete distribution: value → probability. */
type Dist = Map<number, number>;

const GRID = 1e4;
const snap = (x: number) => Math.round(x * GRID) / GRID;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

function leafDist(l: CriterionLeaf): Dist | null {
  if (typeof l.score !== 'number' || !Number.isFinite(l.score)) return null;
  if (!l.distribution?.length) return new Map([[l.score, 1]]);
  const d: Dist = new Map();
  for (const m of l.distribution) d.set(m.score, (d.get(m.score) ?? 0) + m.p);
  return d;
}

/** Distribution of Σ w·v over independent children, then divided and clamped. */
function nodeDist(node: CriterionNode): Dist | null {
  if (node.kind !== 'group') return leafDist(node);
  let acc: Dist = new Map([[0, 1]]);
  let den = 0;
  for (const child of node.children) {
    const w = child.weight;
    if (w === 0 || !Number.isFinite(w)) continue;
    const d = nodeDist(child);
    if (!d) return null;
    const next: Dist = new Map();
    for (const [a, pa] of acc)
      for (const [b, pb] of d) {
        const v = snap(a + w * b);
        next.set(v, (next.get(v) ?? 0) + pa * pb);
      }
    acc = next;
    if (w > 0) den += w;
  }
  if (den === 0) return null;
  const out: Dist = new Map();
  for (const [v, p] of acc) {
    const x = snap(clamp01(v / den));
    out.set(x, (out.get(x) ?? 0) + p);
  }
  return out;
}

/**
 * The central interval's ends: lo is the smallest value whose CDF passes (1−L)/2, hi the
 * smallest whose CDF reaches (1+L)/2; at most (1−L)/2 of the mass lies on each side outside,
 * so the interval holds at least L of it, however coarse the support.
 */
function ends(sorted: [number, number][], level: number): [number, number] {
  const a = (1 - level) / 2;
  const b = (1 + level) / 2;
  let c = 0;
  let lo: number | undefined;
  for (const [v, p] of sorted) {
    c += p;
    if (lo === undefined && c > a + 1e-12) lo = v;
    if (c >= b - 1e-12) return [lo ?? v, v];
  }
  const last = sorted[sorted.length - 1]![0];
  return [lo ?? last, last];
}

/**
 * The central interval at `level` of the reward the tree gives, or null when the tree has no
 * value. With no distributions anywhere it is the point [r, r].
 */
export function rewardInterval(root: CriterionNode, level: number): [number, number] | null {
  const d = nodeDist(root);
  if (!d || d.size === 0) return null;
  const sorted = [...d.entries()].sort((a, b) => a[0] - b[0]);
  let z = 0;
  for (const [, p] of sorted) z += p;
  const norm = sorted.map(([v, p]) => [v, p / z] as [number, number]);
  return ends(norm, level);
}
