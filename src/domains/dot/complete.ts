// Whether a DOT text ends outside every string, comment and HTML label, with its braces
// closed: only such a text can go to a warm `dot` (warm.ts), which reads job after job from
// one stream. A text that ends inside a quote or a comment would swallow what follows it —
// the next marker graph — so it runs in a fresh one-shot sandbox instead, exactly as before.

/** True when `code` can be followed by another graph without merging into it. */
export function isCompleteDot(code: string): boolean {
  let depth = 0; // { } of the graph body
  let angle = 0; // < > of an HTML label
  let i = 0;
  const n = code.length;
  while (i < n) {
    const c = code[i]!;
    if (angle > 0) {
      if (c === '<') angle++;
      else if (c === '>') angle--;
      i++;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < n && code[i] !== '"') i += code[i] === '\\' ? 2 : 1;
      if (i >= n) return false;
      i++;
      continue;
    }
    if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 2;
      continue;
    }
    // Line comments (// and # at a line start) end at the newline the worker adds anyway.
    if (c === '/' && code[i + 1] === '/') {
      const end = code.indexOf('\n', i);
      if (end < 0) return true;
      i = end + 1;
      continue;
    }
    if (c === '<') angle = 1;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    if (depth < 0) return false;
    i++;
  }
  return depth === 0 && angle === 0;
}
