// The rubric's own words in the answer (issue 41 item 1): a caption or comment that repeats
// the rubric's item titles or keys is written for the judge, not for a viewer — the policy
// can only know them by having learned what the judge checks. Only distinctive terms count:
// titles and criteria of three words or more, keys that are identifiers (`eyes_visible`);
// a term the prompt itself contains is never counted (the prompt may ask for those words).

export interface RubricHit {
  term: string;
  index: number;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The terms worth looking for, normalised (lower case, single spaces). */
export function rubricTerms(terms: readonly string[] | undefined, prompt: string): string[] {
  if (!terms?.length) return [];
  const p = norm(prompt);
  const out = new Set<string>();
  for (const raw of terms) {
    const t = norm(raw).replace(/(?<![.!?:;])[.!?:;]+$/, '');
    const words = t.split(' ').length;
    const isKey = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(t);
    if ((words >= 3 && t.length >= 12) || (isKey && t.length >= 6)) {
      if (!p.includes(t)) out.add(t);
    }
  }
  return [...out];
}

/** The first rubric term written in `text` (matched on whole words, spacing ignored). */
export function rubricHit(text: string, terms: readonly string[]): RubricHit | null {
  if (terms.length === 0) return null;
  const t = norm(text);
  for (const term of terms) {
    const at = t.indexOf(term);
    if (at < 0) continue;
    const before = at === 0 ? ' ' : t[at - 1]!;
    const after = t[at + term.length] ?? ' ';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return { term, index: at };
  }
  return null;
}
