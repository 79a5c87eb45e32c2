// A real Redis (Debian's redis-server) on a free loopback port, for tests and benches: never
// a system service. No persistence, so each start is empty; stop() kills this process only.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisProcess {
  /** redis://127.0.0.1:<port>/0 */
  url: string;
  port: number;
  /** Kills the server (SIGKILL when `hard`, as a crash would) and waits for it to exit. */
  stop(hard?: boolean): Promise<void>;
}

/** A port the kernel says is free now (bind to 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on 127.0.0.1 and resolves once it accepts connections. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async stop(hard = false) {
      if (child.exitCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
}
