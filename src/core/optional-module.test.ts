import { describe, expect, it } from 'vitest';
import { RubricaError } from './errors.ts';
import { importOptional, MissingDependencyError } from './optional-module.ts';

describe('importOptional', () => {
  it('loads an installed package', async () => {
    const mod = await importOptional<typeof import('p-limit')>('p-limit', 'a test');
    expect(typeof mod.default).toBe('function');
  });

  it('turns a package that is not installed into a MissingDependencyError naming it', async () => {
    const err = await importOptional('@rubrica-test/not-installed', 'CLIP scoring').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MissingDependencyError);
    expect(err).toBeInstanceOf(RubricaError);
    const e = err as MissingDependencyError;
    expect(e.code).toBe('missing_dependency');
    expect(e.isRetryable).toBe(false);
    expect(e.dependency).toBe('@rubrica-test/not-installed');
    expect(e.message).toContain('CLIP scoring needs the optional package');
    expect(e.message).toContain('npm install @rubrica-test/not-installed');
  });

  it('rethrows other failures as they are', async () => {
    // A file URL that does not exist is not a missing *package*.
    const err = await importOptional('file:///nonexistent/rubrica/x.js', 'a test').catch(
      (e: unknown) => e,
    );
    expect(err).not.toBeInstanceOf(MissingDependencyError);
    expect(err).toBeInstanceOf(Error);
  });
});
