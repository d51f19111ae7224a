/**
 * An error that stops the run before any test: a configuration problem or a failed preflight.
 * It prints as its title and message alone, without a stack: the stack only points into the
 * suite's own code and buries the one line the user has to act on.
 */
import { inspect } from 'node:util';

export class SetupError extends Error {
  constructor(title: string, message: string) {
    super(message);
    this.name = title;
    // Playwright prints a globalSetup error through its stack.
    this.stack = `${title}: ${message}`;
  }

  // Playwright prints an error thrown while loading the configuration with console.error.
  [inspect.custom](): string {
    return `${this.name}: ${this.message}`;
  }
}
