// `--html-full-page`, shared by the commands that render html pages (inspect, render, score,
// eval, serve): the default picture is the 1280×720 viewport; this flag shoots the whole document,
// cut at 4096 px (docs/domains.md). Light: no renderer is loaded here.
import type { Command } from 'commander';
import { HTML_FULL_PAGE_MAX_HEIGHT, HTML_VIEWPORT } from '../domains/html/picture.ts';

export function addHtmlFlag(cmd: Command): Command {
  return cmd.option(
    '--html-full-page',
    `html pages: picture the whole document (${HTML_VIEWPORT.width} px wide, cut at ${HTML_FULL_PAGE_MAX_HEIGHT} px) instead of the ${HTML_VIEWPORT.width}×${HTML_VIEWPORT.height} viewport`,
  );
}

/** The html picture options the flag asks for (none when not given). */
export function htmlFlagOptions(f: { htmlFullPage?: boolean }): { html?: { fullPage: true } } {
  return f.htmlFullPage ? { html: { fullPage: true } } : {};
}
