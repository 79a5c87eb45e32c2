// Setup errors of the models room. A wrong model spec, a missing key or a bad price file is
// a configuration mistake found before any call is made, so it is thrown (the CLI turns it
// into a usage error, exit 2); failures of calls themselves are values (ModelResult).

import { RubricaError } from '../core/errors.ts';

export type ModelConfigErrorCode =
  | 'bad_spec' // not `provider:model`
  | 'unknown_provider' // provider not one of PROVIDERS
  | 'missing_base_url' // openai-compatible without --<role>-base-url / RUBRICA_<ROLE>_BASE_URL
  | 'missing_api_key' // a hosted provider and no key anywhere
  | 'bad_base_url' // not an http(s) URL
  | 'bad_prices'; // price override unreadable or malformed

/**
 * A model configuration that cannot work (bad spec, base URL or prices, missing key): thrown
 * before any call is made.
 */
export class ModelConfigError extends RubricaError<ModelConfigErrorCode> {}

/** A model server that did not answer the pre-flight probe (src/cli/preflight.ts). */
export class ModelUnreachableError extends RubricaError<'model_unreachable'> {
  constructor(
    message: string,
    /** The URL that was tried. */
    readonly url: string,
  ) {
    super('model_unreachable', message, { retryable: true });
  }
}
