// css-tree ships no type declarations and @types/css-tree lags behind 3.x; this declares
// only what the sanitiser (src/render/css.ts) uses, loosely: the tree is walked as plain
// objects after toPlainObject(), checked field by field.
declare module 'css-tree' {
  /** A node as css-tree builds it (children held in its own List class). */
  export interface CssNode {
    type: string;
  }
  /** A node after toPlainObject(): children are arrays, every field is open. */
  export interface CssPlain {
    type: string;
    [field: string]: unknown;
  }
  export interface ParseOptions {
    context?: 'stylesheet' | 'declarationList' | 'value' | 'declaration' | 'selectorList';
    parseCustomProperty?: boolean;
    /** false: declaration values stay Raw text (src/render/sanitize-vars.ts). */
    parseValue?: boolean;
    positions?: boolean;
    onParseError?: (error: Error) => void;
  }
  export function parse(text: string, options?: ParseOptions): CssNode;
  export function generate(ast: CssNode): string;
  export function toPlainObject(ast: CssNode): CssNode;
  export function fromPlainObject(ast: CssNode): CssNode;
  export function walk(ast: CssNode, enter: (node: CssNode) => void): void;
  export const ident: { decode(s: string): string; encode(s: string): string };
}
