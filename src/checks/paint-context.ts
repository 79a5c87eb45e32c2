// Where a piece of an SVG (or HTML) answer paints, for `output_tokens`' padding rule (issue 40
// item 3). Equal bytes are padding only when they add nothing to the picture: the same element
// again in the same place. Real exporters repeat bytes that do paint: Illustrator writes the
// same `<stop offset="1" style="stop-color:#DEFFFF"/>` into fourteen gradients, each with its
// own id and coordinates, and the same path under two differently transformed groups lands in
// two places. So a piece is keyed by its context — the chain of its ancestors' open tags —
// read in one forward pass with a stack.
/**
 * Deeper than this, an open tag starts no new context. Real drawings nest far less (Inkscape
 * and Illustrator files here stay under 20); without the cap, `<g><circle …/>` pasted 400
 * times and never closed would put each copy in a context of its own, and nothing would
 * count as repeated.
 */
export const MAX_CONTEXT_DEPTH = 64;
/** HTML elements that never close: opening one does not start a new context. */
const VOID = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' '),
);

const CLOSE = /<\/\s*([^\s>]+)/y;
const OPEN = /<([A-Za-z][\w:.-]*)/y;

/** Ids something points at (`url(#a)`, `href="#a"`): such an id gives its element a use. */
export function referencedIds(text: string): Set<string> {
  const ids = new Set<string>();
  for (const m of text.matchAll(/url\(\s*['"]?#([^)'"\s]+)|href\s*=\s*["']#([^"'\s]+)/g))
    ids.add(m[1] ?? m[2] ?? '');
  return ids;
}

/**
 * Where an element paints: the chain of its ancestors' open tags. Each distinct chain gets a
 * number; an id nothing points at is dropped from the tag first (it changes nothing on the
 * page, so wrapping copies in `<g id="copy7">` does not make them new).
 */
export class PaintContexts {
  private readonly ids = new Map<string, number>();
  private readonly stack: { name: string; ctx: number }[] = [];
  private readonly open = new Map<string, number>();
  current = 0;
  constructor(private readonly referenced: Set<string>) {}

  /**
   * Apply the tag of `text` from its '<' at `from` to its '>' at `to`: push an open tag, pop
   * to a matching close. Names are read in place (sticky regexes) and only an open tag that
   * starts a context is sliced out: a 20 MB answer has millions of tags.
   */
  tag(text: string, from: number, to: number): void {
    if (text.charCodeAt(from + 1) === 47 /* '/' */) {
      // A close tag with no open partner (prose, a broken answer) is ignored, so each push is
      // popped at most once: the whole walk stays linear.
      if (this.stack.length === 0) return;
      CLOSE.lastIndex = from;
      const name = CLOSE.exec(text)?.[1];
      if (!name || !this.open.get(name)) return;
      for (;;) {
        const top = this.stack.pop();
        if (!top) break;
        this.open.set(top.name, (this.open.get(top.name) ?? 1) - 1);
        if (top.name === name) break;
      }
      this.current = this.stack.at(-1)?.ctx ?? 0;
      return;
    }
    if (text.charCodeAt(to - 1) === 47 /* '/>' */) return;
    OPEN.lastIndex = from;
    const name = OPEN.exec(text)?.[1];
    if (!name || VOID.has(name.toLowerCase())) return;
    this.open.set(name, (this.open.get(name) ?? 0) + 1);
    if (this.stack.length >= MAX_CONTEXT_DEPTH) {
      this.stack.push({ name, ctx: this.current });
      return;
    }
    const t = text.slice(from, to + 1);
    const id = /\sid\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(t);
    const own = id && !this.referenced.has(id[1] ?? id[2] ?? '') ? t.replace(id[0], '') : t;
    const key = `${this.current}\u0000${own}`;
    let ctx = this.ids.get(key);
    if (ctx === undefined) {
      ctx = this.ids.size + 1;
      this.ids.set(key, ctx);
    }
    this.stack.push({ name, ctx });
    this.current = ctx;
  }
}
