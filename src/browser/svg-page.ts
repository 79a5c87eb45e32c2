// The HTML page that shows an SVG the way a web page shows a picture: an <img> filling the
// viewport on a background colour. As an <img>, the SVG runs no scripts and loads nothing
// outside itself (Chromium's "secure static mode" for images), whatever the page allows.
const COLOR = /^[#a-zA-Z0-9(),.%\s-]{1,64}$/;

export function svgImagePage(
  svg: string,
  viewport: { width: number; height: number },
  background: string,
): string {
  // The colour lands in a style sheet: anything but a plain colour token is refused.
  if (!COLOR.test(background)) throw new Error(`not a CSS colour: ${background}`);
  const src = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  const { width, height } = viewport;
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden;background:${background}}img{display:block;width:${width}px;height:${height}px}</style></head><body><img alt="" src="${src}"></body></html>`;
}
