// css-tree, loaded on first use. A render worker that meets no CSS — no <style>, no style="",
// only plain presentation values (see SIMPLE_CSS_VALUE in attributes.ts) — never pays its
// load (~60 ms of a cold worker's start, a third of what `rubrica inspect` waits for).
import { createRequire } from 'node:module';

type CssTree = typeof import('css-tree');

let loaded: CssTree | undefined;

export function cssTree(): CssTree {
  loaded ??= createRequire(import.meta.url)('css-tree') as CssTree;
  return loaded;
}
