import { InputError } from '../errors/codify-error.js';
/** A mistake in the config file, an environment variable or a flag; the message says where. */
export class ConfigError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
