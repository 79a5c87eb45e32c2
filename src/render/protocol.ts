// Messages between the render pool and its worker processes. They travel over Node's IPC
// channel with 'advanced' serialisation (structured clone), so the PNG crosses as bytes,
// not as JSON or base64.
import type { RenderOptions, RenderResult, SanitizedJob } from './types.ts';

export interface WorkerRequest {
  /** 'sanitize': only sanitise and fit, for a renderer outside the worker (Chromium). */
  type: 'render' | 'sanitize';
  id: number;
  svg: string | Uint8Array;
  opts: RenderOptions;
}

export interface WorkerReply {
  id: number;
  result: RenderResult | SanitizedJob;
  /** Worker resident set size after the job, bytes. */
  rss: number;
}

export interface WorkerReady {
  ready: true;
}
