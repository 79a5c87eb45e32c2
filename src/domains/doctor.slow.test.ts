// `rubrica doctor` (issue 35, item 5): real sandbox starts, the machine's real memory cap, and
// the exit code a deployment script reads.
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../test/support/run-cli.ts';
import { currentMemoryCap, runDoctor } from './doctor.ts';

describe('rubrica doctor', () => {
  it('starts each bwrap domain’s sandbox with its tool and names the memory cap in force', async () => {
    const r = await runDoctor({ domains: ['dot', 'latex'] });
    expect(r.memoryCapReason).toMatch(/^cgroup v[12] at \//);
    expect(r.memoryCap).toBe(currentMemoryCap());
    // This machine's cap, printed so a CI log says which path ran.
    console.log(`doctor: memory cap on this machine: ${r.memoryCap}`);
    for (const d of r.domains) {
      expect([d.domain, d.isolation, d.toolOk, d.sandboxOk], d.notes.join('; ')).toEqual([
        d.domain,
        'bwrap',
        true,
        true,
      ]);
      expect(d.memoryCap).toBe(r.memoryCap);
      expect(d.startMs).toBeGreaterThan(0);
    }
    // Versions as the tools answered inside the sandbox; dot's warm pool, timed.
    const [dot, latex] = r.domains;
    expect(dot!.versions!.join(' ')).toMatch(/graphviz version \d/);
    expect(latex!.versions!.join(' ')).toMatch(/pdfTeX .* pdftoppm version/);
    expect(dot!.warmPool!.startMs).toBeGreaterThan(0);
    expect(dot!.warmPool!.warmJobMs).toBeGreaterThan(0);
    expect(latex!.warmPool).toBeUndefined(); // latex has no warm pool
    // Fonts as the renderers resolve them, and the SVG renderers with versions.
    expect(r.fonts.resolves).toMatchObject({
      'sans-serif': 'DejaVu Sans',
      serif: 'DejaVu Serif',
      monospace: 'DejaVu Sans Mono',
    });
    expect(r.fonts.uncovered).not.toContain('Cyrillic'); // DejaVu has it
    expect(r.renderers.find((x) => x.name === 'resvg')?.version).toMatch(/^\d+\.\d+/);
    // --require-cgroup: safe only where a per-sandbox cgroup exists.
    const strict = await runDoctor({ domains: ['dot'], requireCgroup: true });
    expect(strict.ok).toBe(r.memoryCap !== 'per-process only');
  }, 60_000);

  it('exits 1 for a domain that cannot run safely, 0 otherwise; --json is the report', async () => {
    // vega-lite runs in bubblewrap (issue 35 item 2): its sandboxed runtime starts and draws.
    const vega = await runCliInProcess(['doctor', '--domain', 'vega-lite', '--json']);
    const report = JSON.parse(vega.stdout);
    expect(report.domains[0], report.domains[0].notes.join('; ')).toMatchObject({
      domain: 'vega-lite',
      isolation: 'bwrap',
      toolOk: true,
      sandboxOk: true,
      memoryCap: currentMemoryCap(),
      safe: true,
    });
    expect(report.domains[0].startMs).toBeGreaterThan(0);
    expect(vega.code).toBe(0);
    // A domain whose tool is missing cannot run safely: exit 1.
    const chromium = process.env.RUBRICA_CHROMIUM;
    process.env.RUBRICA_CHROMIUM = '/nonexistent/chromium';
    try {
      const html = await runCliInProcess(['doctor', '--domain', 'html', '--json']);
      expect(html.code).toBe(1);
      expect(JSON.parse(html.stdout).domains[0]).toMatchObject({ domain: 'html', safe: false });
    } finally {
      if (chromium === undefined) delete process.env.RUBRICA_CHROMIUM;
      else process.env.RUBRICA_CHROMIUM = chromium;
    }
    const dot = await runCliInProcess(['doctor', '--domain', 'dot,svg']);
    expect(dot.code).toBe(0);
    expect(dot.stdout).toMatch(/^domain\s+isolation\s+tools\s+sandbox\s+memory cap/);
    expect(dot.stdout).toContain(`memory cap on this machine: ${currentMemoryCap()}`);
    // Domains named as arguments: only those count for the exit code.
    const positional = await runCliInProcess(['doctor', 'svg', 'dot', '--no-warm-pools', '--json']);
    expect(positional.code).toBe(0);
    expect(JSON.parse(positional.stdout).domains.map((d: { domain: string }) => d.domain)).toEqual([
      'svg',
      'dot',
    ]);
    const bad = await runCliInProcess(['doctor', '--domain', 'dot,nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a domain: nope');
  }, 60_000);
});
