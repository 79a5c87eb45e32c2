import { describe, expect, it } from 'vitest';
import { socketPathAllowed } from './ws.ts';

describe('the OpenEnv socket path', () => {
  it('is /ws without a token, and only /<token>/ws with one (the client sends no headers)', () => {
    expect(socketPathAllowed('/ws', undefined)).toBe(true);
    expect(socketPathAllowed('/x/ws', undefined)).toBe(false);
    expect(socketPathAllowed('/ws', 'tok')).toBe(false);
    expect(socketPathAllowed('/tok/ws', 'tok')).toBe(true);
    expect(socketPathAllowed('/tok2/ws', 'tok')).toBe(false);
    expect(socketPathAllowed('/to/ws', 'tok')).toBe(false);
  });
});
