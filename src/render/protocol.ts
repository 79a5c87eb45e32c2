// Messages between the render pool and its worker processes. They travel over Node's IPC
// channel with 'advanced' serialisation (structured clone), so the PNG crosses as bytes,
// not as JSON or base64.
import type { RenderOptions, RenderResult } from './types.ts';

export interface WorkerRequest {
  type: 'render';
  id: number;
  svg: string | Uint8Array;
  opts: RenderOptions;
}

export interface WorkerReply {
  id: number;
  result: RenderResult;
  /** Worker resident set size after the job, bytes. */
  rss: number;
}

export interface WorkerReady {
  ready: true;
}
