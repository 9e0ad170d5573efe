/** A mistake in the config file, an environment variable or a flag; the message says where. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
