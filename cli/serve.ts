/**
 * `petstore-conformance serve`: the bundled reference as a stand-in service for client
 * developers, as an API mock server would serve a specification. Loopback only: it is a
 * development aid, never meant to be exposed.
 */
import { randomBytes } from 'node:crypto';
import { startReference } from '../reference/src/server.ts';
import { UsageError } from './usage.ts';

export interface ServeOptions {
  port?: string;
  basePath?: string;
}

export async function serve(options: ServeOptions): Promise<void> {
  const port = options.port === undefined ? 4010 : Number(options.port);
  if (!/^\d+$/.test(options.port ?? '0') || port > 65535) {
    throw new UsageError(`--port takes a port number from 0 to 65535 (got "${options.port}")`);
  }
  const basePath = options.basePath ?? '/api/v1';
  if (!/^\/\S*$/.test(basePath)) {
    throw new UsageError(`--base-path takes a path starting with / (got "${basePath}")`);
  }
  // A key of its own, never API_KEY: that may be a real target's key, and this one is printed.
  const apiKey = `dev-${randomBytes(8).toString('hex')}`;
  const handle = await startReference({ port, apiKey, basePath });
  console.log(`Pet store reference listening at ${handle.baseUrl}`);
  console.log(`API key: ${apiKey}`);
  console.log(`Try: curl -H 'Authorization: Bearer ${apiKey}' ${handle.baseUrl}/pets`);
  console.log('Stop it with Ctrl-C.');
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
