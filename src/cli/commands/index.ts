// The table of subcommands. Each module exports `register(program, setExit)`; main.ts imports
// only the module of the command being run (a module pulls in the library room it faces, and
// some of those load native code, AI SDK providers or the HTTP server). `term` and `summary`
// are what `rubrica --help` lists without loading any module; commands.test.ts checks they
// match what the modules register.

import type { RegisterCommand } from '../register.ts';

export interface CommandEntry {
  /** `name [options] <args>` as commander prints it in the command list. */
  term: string;
  summary: string;
  load: () => Promise<{ register: RegisterCommand }>;
  /**
   * Run before the module loads, for work that can overlap its loading: a one-shot render
   * command forks its render worker here, so the worker boots while the command starts.
   */
  prestart?: () => Promise<unknown>;
  /**
   * The process exits as soon as the command returns and its output is flushed, without
   * Node's orderly teardown (freeing the heap, joining threads): a one-shot command holds
   * nothing worth waiting for by then (bin/rubrica.js; ~10 ms of `inspect`'s start-up cost).
   */
  exitWhenDone?: boolean;
}

const prestartRenderWorker = () =>
  import('../../render/prestart.ts').then((m) => m.prestartRenderWorker());

export const commandTable: Readonly<Record<string, CommandEntry>> = {
  export: {
    term: 'export',
    summary: "write rubrica data in a trainer's dataset format",
    load: () => import('./export.ts'),
  },
  inspect: {
    term: 'inspect [options] <completion>',
    summary: 'extract the SVG from a model completion, render it and run the deterministic checks',
    load: () => import('./inspect.ts'),
    prestart: prestartRenderWorker,
    exitWhenDone: true,
  },
  align: {
    term: 'align [options]',
    summary: 'agreement of judges (scores or pairwise choices) with human ratings or votes',
    load: () => import('./align.ts'),
  },
  studio: {
    term: 'studio [options]',
    summary: 'human studies in the browser: ratings, blinded pairwise, triple rankings',
    load: () => import('./studio.ts'),
  },
  compare: {
    term: 'compare [options] <dirs...>',
    summary: 'compare eval runs: paper-style table and per-prompt win/tie/loss',
    load: () => import('./compare.ts'),
  },
  doctor: {
    term: 'doctor [options] [domains...]',
    summary:
      'check each domain: tools and versions, sandbox start, memory cap, fonts, renderers, warm pool start; exit 1 if one asked for is unsafe',
    load: () => import('./doctor.ts'),
  },
  models: {
    term: 'models',
    summary: 'model servers: check a configuration',
    load: () => import('./models.ts'),
  },
  render: {
    term: 'render [options] <files...>',
    summary: 'render SVG file(s) to PNG in isolated workers (512×512 on white by default)',
    load: () => import('./render.ts'),
    prestart: prestartRenderWorker,
    exitWhenDone: true,
  },
  serve: {
    term: 'serve [options]',
    summary: 'serve rubric rewards over HTTP for RL trainers (verl, OpenRLHF, TRL)',
    load: () => import('./serve.ts'),
  },
  'judge-proxy': {
    term: 'judge-proxy [options]',
    summary: 'a caching, coalescing proxy in front of the judge: calls survive a replica crash',
    load: () => import('./judge-proxy.ts'),
  },
  generate: {
    term: 'generate [options]',
    summary: 'sample n completions per prompt from a policy model into rollouts.jsonl',
    load: () => import('./generate.ts'),
  },
  eval: {
    term: 'eval [options]',
    summary:
      'evaluate a policy or existing rollouts: universal rubric (+ instance rubrics), summary, report.html',
    load: () => import('./eval.ts'),
  },
  rubric: {
    term: 'rubric',
    summary: 'instance rubrics (RULER; PrismaForge with --preset prisma)',
    load: () => import('./rubric.ts'),
  },
  probe: {
    term: 'probe [options]',
    summary:
      'test a judge + reward before training: repeatability, hack resistance, sensitivity, anchors',
    load: () => import('./probe.ts'),
  },
  select: {
    term: 'select [options]',
    summary: 'RL prompt selection: rank instructions by the dispersion U of their k scores',
    load: () => import('./select.ts'),
  },
  decontaminate: {
    term: 'decontaminate [options]',
    summary: 'drop training instructions sharing a word n-gram with a test instruction',
    load: () => import('./decontaminate.ts'),
  },
  curate: {
    term: 'curate [options]',
    summary:
      'PrismaForge data gating: rubric-score candidates, re-synthesise the mid band, keep the best',
    load: () => import('./curate.ts'),
  },
  merge: {
    term: 'merge [options] <shard-outputs...>',
    summary: 'join the outputs of a sharded job (--shard i/N) into what one run would write',
    load: () => import('./merge.ts'),
  },
  score: {
    term: 'score [options]',
    summary: 'score rollouts: render, judge against rubrics, weigh into rewards',
    load: () => import('./score.ts'),
  },
  rescore: {
    term: 'rescore [options]',
    summary:
      'judge a finished score/eval output again with another judge or judging mode, and show what changed',
    load: () => import('./rescore.ts'),
  },
};

/** Loads every command module (for tests and tools that want the full program). */
export async function loadAllCommands(): Promise<RegisterCommand[]> {
  const mods = await Promise.all(Object.values(commandTable).map((c) => c.load()));
  return mods.map((m) => m.register);
}
