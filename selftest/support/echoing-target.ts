/**
 * A gateway that repeats every Authorization value it is given, as careless gateways do: in the
 * message of a 401 (`invalid credentials "Bearer …"`), in the message of every other Error, and
 * in a response header of every answer. In front of a conformant target it stays conformant
 * (an Error's message and extra headers are the target's to choose); `breaking` also drops
 * `code` from every Error (ERROR-SHAPE), so that the failures print those bodies: what a
 * report of such a target would show, the near misses of the key included.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { type CountingProxy, startCountingProxy } from './counting-proxy.ts';

/** The response header that repeats the Authorization value. */
export const echoHeader = 'x-gateway-credential';

export function startEchoingTarget(
  targetBaseUrl: string,
  { breaking = false } = {},
): Promise<CountingProxy> {
  return startCountingProxy(targetBaseUrl, (request) => {
    const given = request.headers.authorization ?? '(none)';
    return (body: string, status: number, headers: OutgoingHttpHeaders) => {
      headers[echoHeader] = given;
      if (status < 400) return body;
      let error: Record<string, unknown>;
      try {
        error = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return body;
      }
      error.message =
        status === 401
          ? `invalid credentials "${given}"`
          : `${String(error.message)} (credentials "${given}")`;
      if (breaking) delete error.code;
      return JSON.stringify(error);
    };
  });
}
