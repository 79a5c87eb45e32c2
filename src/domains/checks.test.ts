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
      ['horizontal_overflow', false],
    ]);
    expect(domainChecks('dot', undefined)).toEqual([]);
  });

  it('html: horizontal overflow in px past the viewport; page_clipped only for full pages', () => {
    const wide = domainChecks('html', {
      layout: { documentWidth: 2008, documentHeight: 720, viewportWidth: 1280 },
    });
    expect(wide.find((c) => c.name === 'horizontal_overflow')).toEqual({
      name: 'horizontal_overflow',
      value: 728,
      flag: true,
      unit: 'px',
      detail: { documentWidth: 2008, viewportWidth: 1280 },
    });
    expect(wide.some((c) => c.name === 'page_clipped')).toBe(false);
    const tall = domainChecks('html', {
      layout: { documentWidth: 1280, documentHeight: 9000, viewportWidth: 1280 },
      fullPage: { documentHeight: 9000, height: 4096, maxHeight: 4096, clipped: true },
    });
    expect(tall.find((c) => c.name === 'horizontal_overflow')?.flag).toBe(false);
    expect(tall.find((c) => c.name === 'page_clipped')).toMatchObject({ value: 9000, flag: true });
  });
});
