import { adviceFor, type ConnectionFailure } from './connection-failure.js';
import { ModelCallError } from './model-call-error.js';
import type { RoleName } from './types.js';

/**
 * A model call whose connection could not be made (see connection-failure.ts). It is not
 * retried, here or by the agent: it names the provider, the host and what to check.
 */
export class ModelUnreachableError extends ModelCallError {
  readonly provider: string;
  readonly host: string;

  constructor(
    role: RoleName,
    spec: string,
    attempts: number,
    readonly failure: ConnectionFailure,
    options?: { cause?: unknown },
  ) {
    const provider = spec.split(':')[0] ?? spec;
    const reason = `cannot connect to ${failure.host} (${failure.code})`;
    super(role, spec, attempts, reason, {
      ...options,
      message: `${role} model ${spec}: ${reason}; ${adviceFor(failure.code)} (providers.${provider}.baseURL in codify.config.json when it is not the provider's own)`,
    });
    this.provider = provider;
    this.host = failure.host;
  }
}
