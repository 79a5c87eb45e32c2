// Public surface of the browser room (see room.ts for the API and its guarantees).
export { CHROMIUM_ARGS, DEFAULT_CHROMIUM, launchChromium } from './launch.ts';
export {
  BadPageJobError,
  type BrowserRoom,
  BrowserRoomClosedError,
  type BrowserRoomOptions,
  type BrowserRoomStats,
  createBrowserRoom,
  type PageErrorCode,
  type PageJob,
  type PageResult,
} from './room.ts';
export { svgImagePage } from './svg-page.ts';
