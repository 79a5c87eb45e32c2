// Cleans CSS found in <style> elements, style="" attributes and presentation attributes
// (fill="url(...)"): nothing in it may make the renderer fetch a resource. Only same-
// document references `url(#id)` survive; @import rules and every other url() go.
// Comments and escapes are removed first so `@im/**/port` or `u\72 l(` cannot hide.

const COMMENT = /\/\*[\s\S]*?(?:\*\/|$)/g;
const HEX_ESCAPE = /\\([0-9a-fA-F]{1,6})[ \t\r\n\f]?/g;
const CHAR_ESCAPE = /\\([^\r\n\f0-9a-fA-F])/g;
const IMPORT_RULE = /@import\b[^;{}]*(?:;|$)/gi;
const URL_FN = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"']*))\s*\)/gi;
// Other CSS functions that can load a resource; librsvg ignores them today, but a later
// version might not, so they are neutralised too.
const LOADING_FN = /\b(image-set|image|src|cross-fade|element)\s*\(/gi;

function decodeEscapes(css: string): string {
  return css
    .replace(HEX_ESCAPE, (_m, hex: string) => {
      const cp = Number.parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    })
    .replace(CHAR_ESCAPE, '$1');
}

/** True when the text could hold anything this module would rewrite. */
export function needsCssCleaning(text: string): boolean {
  return /url|@import|\\|\/\*|image|src|element|cross-fade/i.test(text);
}

/**
 * Returns CSS with external references removed. `removed` collects what was taken out
 * ("css:@import", "css:url").
 */
export function sanitizeCss(text: string, removed: Set<string>): string {
  if (!needsCssCleaning(text)) return text;
  let css = text.replace(COMMENT, ' ');
  if (css.includes('\\')) css = decodeEscapes(css);
  css = css.replace(IMPORT_RULE, () => {
    removed.add('css:@import');
    return '';
  });
  // An @import left without a terminator or in a strange form: drop the keyword.
  if (/@import/i.test(css)) {
    removed.add('css:@import');
    css = css.replace(/@import/gi, '@x-removed-import');
  }
  css = css.replace(URL_FN, (match, dq?: string, sq?: string, bare?: string) => {
    const target = (dq ?? sq ?? bare ?? '').trim();
    if (target.startsWith('#')) return match;
    removed.add('css:url');
    return 'none';
  });
  // Anything url(-like that survived (unbalanced quotes, nested parentheses) is disabled.
  css = css.replace(/url\s*\((?!\s*['"]?#)/gi, () => {
    removed.add('css:url');
    return 'x-removed-url(';
  });
  css = css.replace(LOADING_FN, (_m, name: string) => {
    removed.add('css:url');
    return `x-removed-${name}(`;
  });
  return css;
}
