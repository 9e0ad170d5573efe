import { EnvironmentError } from '../errors/codify-error.js';
/** A hosted provider's API key is not set. */
export class MissingApiKeyError extends EnvironmentError {
  constructor(
    readonly spec: string,
    readonly variable: string,
  ) {
    super(
      `${spec} needs an API key: set the environment variable ${variable} (e.g. export ${variable}=...)`,
    );
    this.name = 'MissingApiKeyError';
  }
}
