// How rubrica starts Chromium: Debian's /usr/bin/chromium through playwright-core (never a
// downloaded browser), headless, and cut off from the network at three levels — a proxy
// that does not exist (so even a request to an IP literal goes nowhere), host names that do
// not resolve, and (in room.ts) every request routed and aborted. Fonts are the pinned
// DejaVu set (src/core/fonts.ts) so text draws as in the other renderers.
//
// No WebGL, by choice: with no GPU, Chromium draws WebGL in software (SwiftShader) in its
// one shared GPU process, and a single draw with an endless fragment shader keeps that
// process busy after its page is gone, so every later page in the browser times out.
// --disable-3d-apis alone leaves OffscreenCanvas (and so workers) a WebGL context;
// --disable-software-rasterizer removes the software GL they all fall back to. A page
// asking for WebGL gets null from getContext, as on a machine without WebGL.
import { type Browser, chromium } from 'playwright-core';
import { readEnv } from '../core/env.ts';
import { fontEnv } from '../core/fonts.ts';
import { DEFAULT_CHROMIUM } from './chromium-path.ts';

export { DEFAULT_CHROMIUM };

export const CHROMIUM_ARGS = [
  '--no-sandbox', // root in CI containers; the page is sandboxed by what it may load, not by OS
  '--disable-gpu',
  '--disable-3d-apis', // WebGL, WebGL2 and Pepper 3D off for documents
  '--disable-software-rasterizer', // no SwiftShader: WebGL off for OffscreenCanvas/workers too
  '--disable-dev-shm-usage', // small /dev/shm in containers crashes renderers
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--no-first-run',
  '--no-default-browser-check',
  '--mute-audio',
  '--hide-scrollbars',
  // Same pixels on every machine: no hinting that depends on the display, sRGB output.
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

export interface LaunchOptions {
  executablePath?: string;
  /** ms to wait for the browser to start; default 60 000 (a loaded 2-core box is slow). */
  launchTimeoutMs?: number;
}

export function launchChromium(opts: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: opts.executablePath ?? readEnv('RUBRICA_CHROMIUM') ?? DEFAULT_CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, ...fontEnv() },
    timeout: opts.launchTimeoutMs ?? 60_000,
    // The caller decides what Ctrl-C means (a batch stops cleanly); the browser must not
    // die under in-flight renders and have them blamed on the drawing.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
