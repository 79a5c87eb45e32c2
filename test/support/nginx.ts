// nginx (Debian) in front of replicas, for tests and benches: examples/scale/nginx.conf with
// its ports replaced, run under a prefix of its own in a temp dir, never a system service.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.ts';

export interface NginxProcess {
  url: string;
  stop(): Promise<void>;
}

const EXAMPLE = new URL('../../examples/scale/nginx.conf', import.meta.url).pathname;

/** The example config with `replicas` (host:port) as the upstream and `listen` as the port. */
export function nginxConfig(replicas: string[], listen: number): string {
  const text = readFileSync(EXAMPLE, 'utf8');
  const servers = replicas.map((r) => `    server ${r} max_fails=1 fail_timeout=10s;`).join('\n');
  return text
    .replace(/( {4}server 127\.0\.0\.1:\d+ max_fails=1 fail_timeout=10s;\n)+/, `${servers}\n`)
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${listen};`);
}

/** Starts nginx in front of `replicas` and resolves once it answers. */
export async function startNginx(replicas: string[]): Promise<NginxProcess> {
  const prefix = mkdtempSync(join(tmpdir(), 'rubrica-nginx-'));
  mkdirSync(join(prefix, 'tmp'));
  // Started as root, nginx's workers run as an unprivileged user: they must be able to
  // write the temp dirs (a large batch body is buffered to a file there).
  chmodSync(prefix, 0o755);
  chmodSync(join(prefix, 'tmp'), 0o777);
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConfig(replicas, port));
  const child: ChildProcess = spawn(
    '/usr/sbin/nginx',
    ['-p', prefix, '-e', 'stderr', '-c', conf, '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() - t0 > 10_000) throw new Error(`nginx did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
