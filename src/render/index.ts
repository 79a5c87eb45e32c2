// Public surface of the render room: sanitise, render in isolated workers, measure.
export {
  type BrowserRoom,
  type BrowserRoomOptions,
  createBrowserRoom,
  type PageJob,
  type PageResult,
} from '../browser/room.ts';
export { chooseRenderer } from './auto.ts';
export { sanitizeCss } from './css.ts';
export { DEFAULT_RENDERER } from './defaults.ts';
export { fitRoot, parseViewBox } from './fit.ts';
export { DEFAULT_LIMITS, MAX_NESTED_SVG_DEPTH, resolveLimits } from './limits.ts';
export { countPathSegments } from './path-segments.ts';
export { INK_THRESHOLD as RENDER_INK_THRESHOLD } from './pixel-stats.ts';
export {
  createRenderPool,
  type PoolStats,
  type RenderPool,
  RenderPoolClosedError,
  type RenderPoolOptions,
  RenderQueueFullError,
} from './pool.ts';
export { isRenderBackground, pngDataUri } from './rasterize.ts';
export {
  type FileRenderReport,
  outputNames,
  type RenderFilesOptions,
  renderFiles,
} from './render-files.ts';
export {
  DEFAULT_BACKGROUND as DEFAULT_RENDER_BACKGROUND,
  DEFAULT_SIZE as DEFAULT_RENDER_SIZE,
  renderJob,
} from './render-job.ts';
export { type SanitizeOptions, type SanitizeResult, sanitizeSvg } from './sanitize.ts';
export { closeSharedRenderPool, configureSharedRenderPool, renderSvg } from './shared-pool.ts';
export type {
  CodeStats,
  PixelStats,
  Renderer,
  RendererName,
  RenderLimits,
  RenderOptions,
  RenderResult,
} from './types.ts';
export { RENDERER_NAMES } from './types.ts';
