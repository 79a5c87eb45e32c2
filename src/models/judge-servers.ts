// Several judge servers behind one client (a handful of vLLM/SGLang replicas; a fleet goes
// behind nginx, docs/scale.md). Each attempt goes to the least-loaded healthy server; a
// server that fails `ejectAfter` attempts in a row (errors, timeouts, or hedges it lost — a
// hanging server never answers with an error) is ejected for `ejectMs`, doubled on each
// ejection in a row up to `maxEjectMs`; once that passes, one attempt probes it, and a success
// takes it back. When every server is ejected the one due back first is used: a call is
// never refused here (the circuit breaker decides that).

export interface JudgeServerOptions {
  /** Failures in a row that eject a server. Default 3. */
  ejectAfter?: number;
  /** First ejection, ms. Default 5 000. */
  ejectMs?: number;
  /** Longest ejection, ms. Default 60 000. */
  maxEjectMs?: number;
  now?: () => number;
}

/** One server's figures, for /metrics and logs. */
export interface JudgeServerStats {
  baseUrl: string;
  inFlight: number;
  calls: number;
  failures: number;
  ejected: boolean;
  ejections: number;
}

export interface JudgeServers {
  readonly urls: readonly string[];
  /** The server for the next attempt, never one in `exclude` while another is usable. */
  pick(exclude?: ReadonlySet<number>): number;
  /** An attempt to server `i` starts; call the returned function with how it ended. */
  start(i: number): (outcome: 'success' | 'failure' | 'dropped') => void;
  stats(): JudgeServerStats[];
}

interface Server {
  baseUrl: string;
  inFlight: number;
  calls: number;
  failures: number;
  inARow: number;
  ejections: number;
  ejectedUntil: number;
  probing: boolean;
}

const FAILURE_WEIGHT = 4;

/** Splits `--judge-base-url a,b` / RUBRICA_JUDGE_BASE_URLS into trimmed, non-empty URLs. */
export function parseBaseUrls(list: string): string[] {
  return list
    .split(/[,\s]+/)
    .map((s) => s.trim().replace(/(?<!\/)\/+$/, ''))
    .filter((s) => s !== '');
}

export function createJudgeServers(
  urls: readonly string[],
  o: JudgeServerOptions = {},
): JudgeServers {
  if (urls.length === 0) throw new RangeError('at least one judge base URL is needed');
  const ejectAfter = o.ejectAfter ?? 3;
  const ejectMs = o.ejectMs ?? 5000;
  const maxEjectMs = o.maxEjectMs ?? 60_000;
  const now = o.now ?? Date.now;
  const servers: Server[] = urls.map((baseUrl) => ({
    baseUrl,
    inFlight: 0,
    calls: 0,
    failures: 0,
    inARow: 0,
    ejections: 0,
    ejectedUntil: 0,
    probing: false,
  }));
  // Usable now: not ejected, or ejected, due back, and no probe already out.
  const usable = (s: Server, t: number) => s.ejectedUntil <= t && !s.probing;
  // Load: attempts in flight, each failure in a row weighing as much as FAILURE_WEIGHT of
  // them, so a server that just failed is not chosen again on a tie before it is ejected.
  const load = (s: Server) => s.inFlight + FAILURE_WEIGHT * s.inARow;

  return {
    urls,
    pick(exclude) {
      const t = now();
      let best = -1;
      for (let i = 0; i < servers.length; i++) {
        const s = servers[i]!;
        if (exclude?.has(i) || !usable(s, t)) continue;
        if (best < 0 || load(s) < load(servers[best]!)) best = i;
      }
      if (best >= 0) return best;
      // Nothing usable outside `exclude`: the server due back first (the primary on a tie).
      let soonest = 0;
      for (let i = 1; i < servers.length; i++) {
        if (exclude?.has(soonest) && !exclude.has(i)) soonest = i;
        else if (servers[i]!.ejectedUntil < servers[soonest]!.ejectedUntil && !exclude?.has(i))
          soonest = i;
      }
      return soonest;
    },
    start(i) {
      const s = servers[i]!;
      s.inFlight++;
      s.calls++;
      // An attempt to a server whose ejection has run out is its probe.
      const probe = s.ejections > 0 && s.ejectedUntil > 0 && s.ejectedUntil <= now();
      if (probe) s.probing = true;
      let ended = false;
      return (outcome) => {
        if (ended) return;
        ended = true;
        s.inFlight--;
        if (probe) s.probing = false;
        if (outcome === 'success') {
          s.inARow = 0;
          s.ejections = 0;
          s.ejectedUntil = 0;
          return;
        }
        if (outcome === 'dropped') return; // cancelled by its caller: says nothing of the server
        s.failures++;
        s.inARow++;
        if (probe || s.inARow >= ejectAfter) {
          const ms = Math.min(maxEjectMs, ejectMs * 2 ** s.ejections);
          s.ejections++;
          s.ejectedUntil = now() + ms;
          s.inARow = 0;
        }
      };
    },
    stats: () =>
      servers.map((s) => ({
        baseUrl: s.baseUrl,
        inFlight: s.inFlight,
        calls: s.calls,
        failures: s.failures,
        ejected: s.ejectedUntil > now(),
        ejections: s.ejections,
      })),
  };
}
