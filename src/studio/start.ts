// Runs a study: loads the runs' pictures, builds (or resumes) the plan in the database, and
// serves the app on a real port with @hono/node-server, loopback by default and under the
// same exposure rule as `rubrica serve` (checkExposure).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { checkExposure } from '../server/exposure.ts';
import { createStudioApp } from './app.ts';
import { openStudioStore, type StudioStore } from './store.ts';
import { buildPlan, loadItems, type Study } from './study.ts';

export interface StudioOptions {
  runs: readonly string[];
  study: Study;
  db: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Admin token; generated and stored in the database when absent. */
  token?: string;
  insecure?: boolean;
  /** Told about run lines and pictures left out (unreadable, missing). */
  onWarning?: (message: string) => void;
}

export interface RunningStudio {
  url: string;
  store: StudioStore;
  adminUrl: string;
  raterUrls: { name: string; url: string }[];
  close(): Promise<void>;
}

export async function startStudio(opts: StudioOptions): Promise<RunningStudio> {
  const host = opts.host ?? '127.0.0.1';
  // As for serve: a non-loopback address needs an explicit --token (or --insecure on purpose).
  // The studio has no judge: what it would expose is the raters' links and their answers.
  checkExposure({
    host,
    token: opts.token,
    insecure: opts.insecure,
    risk: 'the studio holds the raters’ answers, and anyone on the network who sees a link can read them or answer in a rater’s place',
  });
  const items = await loadItems(opts.runs, opts.onWarning);
  const plan = buildPlan(opts.study, items);
  const store = openStudioStore(opts.db, {
    study: opts.study,
    items,
    plan,
    adminToken: opts.token,
  });
  const app = createStudioApp(store);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 8790 }, () =>
      resolve(s),
    );
    s.once('error', reject);
  }).catch((err) => {
    store.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    adminUrl: `${url}/admin/${store.adminToken}`,
    raterUrls: store.raters().map((r) => ({ name: r.name, url: `${url}/r/${r.token}` })),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }).then(() => store.close());
      return closing;
    },
  };
}
