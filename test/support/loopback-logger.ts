// A TCP listener on 127.0.0.1 that records every connection attempt: the safety tests point
// sandboxed code at it, and a sandbox that holds must leave it with nothing to report.
import { createServer, type Server } from 'node:net';

export interface LoopbackLogger {
  port: number;
  url: string;
  /** Connections accepted so far (each with the first bytes it sent). */
  hits: string[];
  close(): Promise<void>;
}

export async function startLoopbackLogger(): Promise<LoopbackLogger> {
  const hits: string[] = [];
  const server: Server = createServer((sock) => {
    let first = '';
    hits.push('');
    const i = hits.length - 1;
    sock.on('data', (b) => {
      first = (first + b.toString('latin1')).slice(0, 300);
      hits[i] = first;
    });
    sock.on('error', () => {});
    sock.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
