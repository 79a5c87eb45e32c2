// Which addresses count as loopback, and when an exposed server is refused.
import { describe, expect, it } from 'vitest';
import { ServerConfigError } from './config-error.ts';
import { checkExposure, isLoopback } from './exposure.ts';

describe('exposure', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'gpu-box', '192.168.1.2', '::ffff:10.0.0.1'])
      expect(isLoopback(h)).toBe(false);
  });

  it('refuses a non-loopback host without a token unless insecure', () => {
    expect(() => checkExposure({ host: '0.0.0.0' })).toThrow(ServerConfigError);
    expect(() => checkExposure({ host: '0.0.0.0', insecure: true })).not.toThrow();
    expect(() => checkExposure({ host: '0.0.0.0', token: 'abc-123' })).not.toThrow();
    expect(() => checkExposure({ host: '127.0.0.1' })).not.toThrow();
    expect(() => checkExposure({ host: '127.0.0.1', token: '' })).toThrow(/empty/);
    expect(() => checkExposure({ host: '127.0.0.1', token: 'tok\n' })).toThrow(/Bearer/);
  });
});
