// The SSE answer of one ORS `/call`: the task id first (so a client whose stream breaks can
// resume), a `: ping` comment every PING_MS while the call runs (the clients give up on a
// stream after 30 s of silence and re-POST), then the result in chunks. A client that goes
// away only ends this stream: the call runs on, and its result waits for the resume.
import type { OrsCall } from './calls.ts';
import { resultEvents, SSE_PING, sseEvent } from './sse.ts';

/** Pings while a call runs: well inside the clients' 30 s silence limit. */
export const PING_MS = 10_000;

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

/** The event stream of `call`, pinging every `pingMs` until its result is written. */
export function callStream(call: OrsCall, pingMs = PING_MS): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (s: string) => {
        if (!closed) controller.enqueue(enc.encode(s));
      };
      send(sseEvent('task_id', call.taskId));
      timer = setInterval(() => send(SSE_PING), pingMs);
      call.result.then(
        (json) => {
          clearInterval(timer);
          send(resultEvents(json));
          if (!closed) {
            closed = true;
            controller.close();
          }
        },
        () => {
          // Calls resolve to a result even when the grader fails (tools.ts); a rejection is
          // a bug, reported as the protocol's error event rather than a hung stream.
          clearInterval(timer);
          send(sseEvent('error', 'internal error'));
          if (!closed) {
            closed = true;
            controller.close();
          }
        },
      );
    },
    cancel() {
      closed = true;
      clearInterval(timer);
    },
  });
}

/** A one-shot answer (`/create_session`, an invalid call) as an event stream. */
export function eventsStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
