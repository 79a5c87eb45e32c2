import { describe, expect, it } from 'vitest';
import { domainChecks } from './checks.ts';

describe('domainChecks', () => {
  it('flags python warnings, empty vega-lite data and html console errors', () => {
    expect(domainChecks('python', { warnings: ['UserWarning: x'] })).toEqual([
      {
        name: 'warnings',
        value: 1,
        flag: true,
        unit: 'count',
        detail: { first: ['UserWarning: x'] },
      },
    ]);
    const vl = domainChecks('vega-lite', { dataRows: 0 });
    expect(vl.find((c) => c.name === 'empty_data')?.flag).toBe(true);
    expect(
      domainChecks('vega-lite', { dataRows: 3 }).find((c) => c.name === 'empty_data')?.flag,
    ).toBe(false);
    const html = domainChecks('html', { consoleErrors: 2, blockedRequests: 0 });
    expect(html.map((c) => [c.name, c.flag])).toEqual([
      ['console_errors', true],
      ['blocked_requests', false],
    ]);
    expect(domainChecks('dot', undefined)).toEqual([]);
  });
});
