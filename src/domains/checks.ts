// Cheap deterministic checks particular to a domain, read from what its renderer noticed
// while running the code (DomainNotes). They sit after the common checks (renders, blank,
// ink, …) in an inspection, in a fixed order per domain.
import type { CheckResult } from '../checks/types.ts';
import type { DomainId } from '../core/domain-ids.ts';
import type { DomainNotes } from './types.ts';

export function domainChecks(domain: DomainId, notes: DomainNotes | undefined): CheckResult[] {
  const n = notes ?? {};
  const out: CheckResult[] = [];
  if (domain === 'python' || domain === 'vega-lite') {
    const w = n.warnings ?? [];
    out.push({
      name: 'warnings',
      value: w.length,
      flag: w.length > 0,
      unit: 'count',
      ...(w.length ? { detail: { first: w.slice(0, 5) } } : {}),
    });
  }
  if (domain === 'vega-lite') {
    const rows = n.dataRows;
    out.push({
      name: 'empty_data',
      value: rows ?? 0,
      flag: rows === 0,
      unit: 'count',
      detail: { rows: rows ?? null },
    });
  }
  if (domain === 'html') {
    out.push(
      {
        name: 'console_errors',
        value: n.consoleErrors ?? 0,
        flag: (n.consoleErrors ?? 0) > 0,
        unit: 'count',
        ...(n.consoleMessages?.length ? { detail: { first: n.consoleMessages } } : {}),
      },
      {
        name: 'blocked_requests',
        value: n.blockedRequests ?? 0,
        flag: (n.blockedRequests ?? 0) > 0,
        unit: 'count',
      },
    );
    // Wider than the viewport: a sideways scroll bar, or (overflow hidden) content cut off.
    // Unknown (no layout: the page failed) counts as no overflow, like the counts above.
    const l = n.layout;
    const over = l ? Math.max(0, l.documentWidth - l.viewportWidth) : 0;
    out.push({
      name: 'horizontal_overflow',
      value: over,
      flag: over > 0,
      unit: 'px',
      ...(l ? { detail: { documentWidth: l.documentWidth, viewportWidth: l.viewportWidth } } : {}),
    });
    if (n.fullPage) {
      // Only with the full-page option: the document was taller than the picture's cap.
      const f = n.fullPage;
      out.push({
        name: 'page_clipped',
        value: f.documentHeight,
        flag: f.clipped,
        unit: 'px',
        detail: { height: f.height, maxHeight: f.maxHeight },
      });
    }
  }
  return out;
}
