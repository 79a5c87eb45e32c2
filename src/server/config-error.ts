// Why the reward server cannot start as asked: a token that cannot work, an exposed address
// without one, a port already taken. Thrown before any request is served; the CLI turns
// the configuration codes into usage errors (exit 2) and the listening ones into one line
// with exit 1.
import { RubricaError } from '../core/errors.ts';

/**
 * A server that cannot start as configured: a bad token, a non-loopback host without one,
 * or a port that cannot be listened on.
 */
export class ServerConfigError extends RubricaError<
  | 'empty_token'
  | 'bad_token'
  | 'exposed_without_token'
  | 'port_in_use'
  | 'listen_failed'
  | 'upstream_credentials'
  | 'protocol_clash'
> {}
