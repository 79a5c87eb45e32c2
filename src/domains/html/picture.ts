// What picture an html page becomes: the viewport (default) or the whole document up to a
// cap. Kept apart from the renderer so the CLI's flag help can name the sizes without
// loading the renderer (sharp, the browser room).

/** The default picture: a laptop screen's first view of the page. */
export const HTML_VIEWPORT = Object.freeze({ width: 1280, height: 720 });
/** The tallest full-page picture (px): ≈ 5.7 screens; a taller document is cut here. */
export const HTML_FULL_PAGE_MAX_HEIGHT = 4096;

/** How an html page becomes a picture (the library's option; the CLI's `--html-full-page`). */
export interface HtmlPictureOptions {
  /** Shoot the whole document at the viewport's width instead of the viewport (default false). */
  fullPage?: boolean;
  /** Full page only: cut the picture at this height, px (default 4096). */
  maxHeight?: number;
}
