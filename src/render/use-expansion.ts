// How many elements a document stands for once every <use> is expanded. A <use> pointing
// at a group that itself holds ten <use>s of another group... grows exponentially with
// depth (the "billion laughs" of SVG), and a <use> pointing at its own ancestor never ends.
// The sanitiser records, per element with an id, its own element count and the ids its
// subtree references; this module resolves the totals with memoisation and cycle checks.

export interface RefNode {
  /** Elements in the subtree, itself included, before expansion. */
  count: number;
  /** Referenced id → how many <use> elements in the subtree point at it. */
  refs: Map<string, number> | null;
  /** Filter primitive passes in the subtree, before expansion (render-cost bound). */
  work: number;
  /** Characters of text in the subtree, before expansion (render-cost bound). */
  glyphs: number;
  /**
   * Every id the subtree draws again per reference: <use>, markers, and url(#id) in
   * filter, mask, clip-path, fill and stroke (attributes, style="" and <style> rules).
   */
  drawRefs: Map<string, number> | null;
}

/** What to total over an expansion: an amount per subtree and the references to follow. */
export interface Measure {
  own: (node: RefNode) => number;
  refs: (node: RefNode) => Map<string, number> | null;
}

/** Elements through <use> and markers: the expandedElements of CodeStats. */
export const ELEMENTS: Measure = { own: (n) => n.count, refs: (n) => n.refs };

export type ExpansionResult =
  | { ok: true; total: number }
  | { ok: false; reason: 'cycle' | 'limit' };

/**
 * Total elements after expansion of `root`, giving up as soon as `limit` is passed.
 * `byId` holds the subtree facts of every element that has an id.
 */
export function expandedCount(
  root: RefNode,
  byId: Map<string, RefNode>,
  limit: number,
  measure: Measure = ELEMENTS,
): ExpansionResult {
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  let failure: 'cycle' | 'limit' | null = null;

  const total = (node: RefNode): number => {
    let sum = measure.own(node);
    const refs = measure.refs(node);
    if (!refs) return sum;
    for (const [id, times] of refs) {
      const target = byId.get(id);
      if (!target) continue; // a dangling reference draws nothing
      let each = memo.get(id);
      if (each === undefined) {
        if (visiting.has(id)) {
          failure = 'cycle';
          return Number.POSITIVE_INFINITY;
        }
        visiting.add(id);
        each = total(target);
        visiting.delete(id);
        if (failure) return Number.POSITIVE_INFINITY;
        memo.set(id, each);
      }
      sum += times * each;
      if (sum > limit) {
        failure = 'limit';
        return Number.POSITIVE_INFINITY;
      }
    }
    return sum;
  };

  const n = total(root);
  if (failure) return { ok: false, reason: failure };
  if (n > limit) return { ok: false, reason: 'limit' };
  return { ok: true, total: n };
}

/** Adds the references of `child` into `into` (created on demand). */
export function mergeRefs(
  into: Map<string, number> | null,
  child: Map<string, number> | null,
): Map<string, number> | null {
  if (!child) return into;
  const out = into ?? new Map<string, number>();
  for (const [id, n] of child) out.set(id, (out.get(id) ?? 0) + n);
  return out;
}
