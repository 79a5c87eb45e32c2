// `rubrica judge-proxy`: a small OpenAI/Anthropic-compatible proxy in front of the judge
// (src/proxy/). Replicas point --judge-base-url at it; it holds each judge call itself, so a
// replica SIGKILLed mid-step loses no answer: the call runs on, is kept, and the retry that
// reaches another replica is answered from it. Thin: flags, then startProxy, then drain on
// SIGTERM/SIGINT.
import { pino } from 'pino';
import { readEnv } from '../../core/env.ts';
import { redactUrl } from '../../proxy/forward.ts';
import { startProxy } from '../../proxy/server.ts';
import { ServerConfigError } from '../../server/config-error.ts';
import { checkCacheReachable, intOption } from '../flags.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

interface ProxyFlags {
  upstream?: string;
  host: string;
  port: number;
  cache?: string;
  concurrency: number;
  judgeRpm: number;
  judgeTpm: number;
  ttlS: number;
  timeoutS: number;
  maxBodyMb: number;
  maxBodyTotalMb: number;
  bodyTimeout: number;
  maxAnswerMb: number;
  cacheMb: number;
  maxQueue: number;
  queueTimeoutS: number;
  drainS: number;
  token?: string;
  insecure?: boolean;
  logLevel: string;
}

export const register: RegisterCommand = (program) => {
  program
    .command('judge-proxy')
    .description('a caching, coalescing proxy in front of the judge: calls survive a replica crash')
    .option('--upstream <base-url>', "the judge's base URL, e.g. http://judge:8000/v1 (required)")
    .option('--host <host>', 'address to bind (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', intOption('--port', 0), 8790)
    .option(
      '--cache <redis://…|file>',
      'also keep answers here, shared by proxies: redis://host:port/db or a SQLite file',
    )
    .option(
      '--concurrency <n>',
      'upstream calls in flight at once (over all proxies when --cache is redis://)',
      intOption('--concurrency', 1),
      32,
    )
    .option(
      '--judge-rpm <n>',
      'upstream requests per minute (0: no limit)',
      intOption('--judge-rpm', 0),
      0,
    )
    .option(
      '--judge-tpm <n>',
      'upstream tokens per minute (0: no limit)',
      intOption('--judge-tpm', 0),
      0,
    )
    .option('--ttl-s <s>', 'how long a 200 answer is kept, seconds', intOption('--ttl-s', 1), 600)
    .option('--timeout-s <s>', 'per upstream call, seconds', intOption('--timeout-s', 1), 120)
    .option(
      '--max-body-mb <n>',
      'largest request body, MB (413 above)',
      intOption('--max-body-mb', 1),
      64,
    )
    .option(
      '--max-body-total-mb <n>',
      'request bodies being read at once over all requests, MB, counted as bytes arrive (503 body_budget above)',
      intOption('--max-body-total-mb', 1),
      256,
    )
    .option(
      '--body-timeout <ms>',
      'a whole request body must arrive within this, ms (408 body_timeout)',
      intOption('--body-timeout', 1),
      60_000,
    )
    .option(
      '--max-answer-mb <n>',
      'largest judge answer read, MB (502 answer_too_large above, not kept)',
      intOption('--max-answer-mb', 1),
      64,
    )
    .option(
      '--cache-mb <n>',
      'answers kept in memory at most, MB (least recently used dropped first)',
      intOption('--cache-mb', 1),
      256,
    )
    .option(
      '--max-queue <n>',
      'judge calls waiting for a slot at most (503 queue_full + Retry-After above)',
      intOption('--max-queue', 1),
      1024,
    )
    .option(
      '--queue-timeout-s <s>',
      'longest a judge call waits for a slot, seconds (then 503 queue_full)',
      intOption('--queue-timeout-s', 1),
      60,
    )
    .option(
      '--drain-s <s>',
      'on SIGTERM, longest wait for open requests and calls before closing them, seconds',
      intOption('--drain-s', 1),
      30,
    )
    .option(
      '--token <token>',
      'require this token from clients (Bearer or x-api-key; else RUBRICA_TOKEN); the judge then gets RUBRICA_JUDGE_API_KEY',
    )
    .option('--insecure', 'serve a non-loopback --host without a token (refused otherwise)')
    .option('--log-level <level>', 'pino level: fatal|error|warn|info|debug', 'info')
    .action((o: ProxyFlags) => judgeProxy(o));
};

function upstreamUrl(raw: string | undefined): string {
  if (!raw)
    throw new UsageError(
      '--upstream <base-url> is required (the judge, e.g. http://judge:8000/v1)',
    );
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError('--upstream: not a URL (e.g. http://judge:8000/v1)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`--upstream: "${redactUrl(raw)}" is not http(s)`);
  if (u.username || u.password)
    throw new UsageError(
      `--upstream ${redactUrl(raw)} holds credentials (user:password@), which never reach the judge and would be shown in errors; put the judge's key in RUBRICA_JUDGE_API_KEY (with --token) instead`,
    );
  return raw.replace(/(?<!\/)\/+$/, '');
}

async function judgeProxy(o: ProxyFlags): Promise<void> {
  const upstream = upstreamUrl(o.upstream);
  const token = o.token ?? readEnv('RUBRICA_TOKEN');
  if (o.cache) await checkCacheReachable(o.cache);
  const log = pino(
    { level: o.logLevel, base: { svc: 'rubrica-judge-proxy' } },
    pino.destination({ dest: 2, sync: true }),
  );
  const proxy = await startProxy({
    upstream,
    host: o.host,
    port: o.port,
    ...(o.cache ? { cache: o.cache } : {}),
    concurrency: o.concurrency,
    rpm: o.judgeRpm,
    tpm: o.judgeTpm,
    ttlMs: o.ttlS * 1000,
    timeoutMs: o.timeoutS * 1000,
    maxBodyBytes: o.maxBodyMb * 1024 * 1024,
    maxBodyTotalBytes: o.maxBodyTotalMb * 1024 * 1024,
    bodyTimeoutMs: o.bodyTimeout,
    maxAnswerBytes: o.maxAnswerMb * 1024 * 1024,
    cacheBytes: o.cacheMb * 1024 * 1024,
    maxQueue: o.maxQueue,
    queueTimeoutMs: o.queueTimeoutS * 1000,
    drainMs: o.drainS * 1000,
    ...(token !== undefined ? { token } : {}),
    ...(token !== undefined && readEnv('RUBRICA_JUDGE_API_KEY')
      ? { upstreamKey: readEnv('RUBRICA_JUDGE_API_KEY') }
      : {}),
    ...(o.insecure ? { insecure: true } : {}),
    logger: log,
  }).catch((err) => {
    // A bad token or an exposed host is a usage error; a port in use is not.
    if (
      err instanceof ServerConfigError &&
      err.code !== 'port_in_use' &&
      err.code !== 'listen_failed'
    )
      throw new UsageError(err.message);
    throw err;
  });
  // The upstream's URL may hold a key in its query: log where it is, not what it holds.
  log.info(
    { url: proxy.url, upstream: new URL(upstream).origin, cache: Boolean(o.cache) },
    'ready',
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      proxy.close(signal).then(resolve, (err) => {
        log.error({ err }, 'shutdown failed');
        process.exitCode = 1;
        resolve();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  setTimeout(() => process.exit(process.exitCode ?? 0), 3000).unref();
}
