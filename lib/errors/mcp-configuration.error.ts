/**
 * A mistake in how the app uses this library, found at bootstrap: the app does not start,
 * and the message says what to change.
 * @publicApi
 */
export class McpConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigurationError';
  }
}
