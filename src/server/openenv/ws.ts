// The OpenEnv WebSocket (`/ws`): one episode per connection, messages answered in order.
// The client (huggingface/OpenEnv src/openenv/core/env_client.py at 385de5e; meta-pytorch
// 685de41 alike) sends `{"type": "reset"|"step"|"state"|"close", "data": …}` and reads
// `{"type": "observation"|"state"|"error", "data": …}`; errors carry the server's codes
// (INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR, EXECUTION_ERROR, CAPACITY_REACHED). It sends
// no headers, so with a token the credential travels in the path: `/<token>/ws` (the client
// is given `http://host:port/<token>` as its base URL).
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Admission } from '../admission.ts';
import type { OrsTaskSpec } from '../ors/sessions.ts';
import {
  actionOf,
  type OpenEnvDeps,
  OpenEnvInputError,
  resetResult,
  runStep,
  taskOfReset,
} from './episode.ts';

type ErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED';

const error = (code: ErrorCode, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'error', data: { message, code, ...extra } });

export interface OpenEnvSocketOptions extends OpenEnvDeps {
  admission: Admission;
  /** Most open episodes (connections) at once: `--max-in-flight`. */
  maxSessions: number;
  token?: string | undefined;
  log?: Logger | undefined;
  /** Largest message, bytes (a drawing's code). */
  maxMessageBytes?: number;
}

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Whether an upgrade to this path is the OpenEnv socket, given the token (if any). */
export function socketPathAllowed(path: string, token: string | undefined): boolean {
  if (token === undefined) return path === '/ws';
  const m = /^\/([^/]+)\/ws$/.exec(path);
  return m !== null && same(decodeURIComponent(m[1]!), token);
}

interface Episode {
  id: string;
  task: OrsTaskSpec | null;
  steps: number;
  done: boolean;
}

/** Attaches `/ws` to the HTTP server; returns a closer that ends every open episode. */
export function attachOpenEnvSocket(server: Server, o: OpenEnvSocketOptions): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxMessageBytes ?? 16 << 20 });
  const open = new Set<WebSocket>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!socketPathAllowed(path, o.token)) {
      const status =
        o.token !== undefined && path.endsWith('/ws') ? '401 Unauthorized' : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveEpisode(ws));
  };
  server.on('upgrade', onUpgrade);

  function serveEpisode(ws: WebSocket) {
    if (open.size >= o.maxSessions || o.admission.draining) {
      ws.send(
        error('CAPACITY_REACHED', `at most ${o.maxSessions} episodes at once`, {
          active_sessions: open.size,
          max_sessions: o.maxSessions,
        }),
      );
      ws.close();
      return;
    }
    open.add(ws);
    ws.on('close', () => open.delete(ws));
    const episode: Episode = { id: randomUUID(), task: null, steps: 0, done: false };
    // Messages are answered in the order they came: each waits for the one before.
    let queue: Promise<void> = Promise.resolve();
    ws.on('message', (raw, isBinary) => {
      queue = queue.then(async () => {
        const reply = await answer(episode, isBinary ? '' : raw.toString());
        if (reply === null) ws.close();
        else if (ws.readyState === ws.OPEN) ws.send(reply);
      });
    });
  }

  async function answer(ep: Episode, text: string): Promise<string | null> {
    let msg: { type?: unknown; data?: unknown };
    try {
      msg = JSON.parse(text);
    } catch (err) {
      return error('INVALID_JSON', `Invalid JSON: ${(err as Error).message}`);
    }
    const data = (msg?.data ?? {}) as Record<string, unknown>;
    try {
      switch (msg?.type) {
        case 'reset': {
          ep.task = taskOfReset(o.tasks, data);
          ep.id = typeof data.episode_id === 'string' ? data.episode_id : randomUUID();
          ep.steps = 0;
          ep.done = false;
          return JSON.stringify({ type: 'observation', data: resetResult(ep.task) });
        }
        case 'step': {
          if (!ep.task) throw new OpenEnvInputError('send a reset before the first step');
          const action = actionOf(data);
          if (!o.admission.tryAcquire(1)) {
            return error('CAPACITY_REACHED', 'the server is scoring as many rollouts as it may');
          }
          try {
            const result = await runStep(o, ep.task, action, `openenv-${ep.id}-${ep.steps}`);
            ep.steps++;
            ep.done = result.done;
            return JSON.stringify({ type: 'observation', data: result });
          } finally {
            o.admission.release(1);
          }
        }
        case 'state':
          return JSON.stringify({
            type: 'state',
            data: {
              episode_id: ep.id,
              step_count: ep.steps,
              prompt_id: ep.task?.prompt_id ?? null,
              done: ep.done,
            },
          });
        case 'close':
          return null;
        default:
          return error('UNKNOWN_TYPE', `Unknown message type: ${String(msg?.type ?? '')}`);
      }
    } catch (err) {
      if (err instanceof OpenEnvInputError) {
        return error('VALIDATION_ERROR', err.message);
      }
      o.log?.error({ err }, 'openenv message failed');
      return error('EXECUTION_ERROR', 'the server failed on this message');
    }
  }

  return () => {
    server.off('upgrade', onUpgrade);
    for (const ws of open) ws.close(1001, 'server shutting down');
    wss.close();
  };
}
