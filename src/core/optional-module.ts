// Loads a package that rubrica lists as an optional peer dependency (today only
// @huggingface/transformers, for in-process CLIP: it pulls onnxruntime-node, ~450 MB, whose
// post-install downloads CUDA binaries). `npm install rubrica` does not install it; the
// first feature that needs it loads it here, and a missing package becomes one clear error
// naming what to install instead of a bare ERR_MODULE_NOT_FOUND from deep inside a run.
import { RubricaError } from './errors.ts';

/**
 * An optional peer package a feature needs is not installed (code `missing_dependency`); the
 * message says what to install.
 */
export class MissingDependencyError extends RubricaError<'missing_dependency'> {
  readonly dependency: string;
  constructor(dependency: string, feature: string, install: string, cause: unknown) {
    super(
      'missing_dependency',
      `${feature} needs the optional package ${dependency}, which is not installed: run ` +
        `\`${install}\` in your project (rubrica does not install it by default)`,
      { cause },
    );
    this.dependency = dependency;
  }
}

/** True when `err` says that `pkg` itself (not something inside it) cannot be found. */
function isMissing(err: unknown, pkg: string): boolean {
  if (!(err instanceof Error)) return false;
  // Node's ESM resolver says "Cannot find package 'name' imported from …" for exactly this.
  const code = (err as { code?: unknown }).code;
  return code === 'ERR_MODULE_NOT_FOUND' && err.message.includes(`Cannot find package '${pkg}'`);
}

/**
 * `import(pkg)`, or a MissingDependencyError when the package is not installed. Any other
 * failure (a broken install, a missing native binary) is rethrown as it is.
 */
export async function importOptional<T>(
  pkg: string,
  feature: string,
  install = `npm install ${pkg}`,
): Promise<T> {
  try {
    return (await import(pkg)) as T;
  } catch (err) {
    if (isMissing(err, pkg)) throw new MissingDependencyError(pkg, feature, install, err);
    throw err;
  }
}
