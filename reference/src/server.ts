// Composition: a clean service, the chosen variant applied to it, the HTTP server around it.
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHttpServer } from './http.ts';
import { createService } from './service.ts';
import { PetStore, seedPet } from './store.ts';
import { cleanVariant } from './variants/clean.ts';

export interface ReferenceOptions {
  /** Interface to listen on; default 127.0.0.1 (the reference is never meant to be exposed). */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  apiKey: string;
  /** Default /api/v1. A variant may impose another one (deep-base-path). */
  basePath?: string;
  /** A name from the variant registry, or 'clean' (the default). */
  variant?: string;
  /** Pets pre-seeded at start; wins over the variant's own number. */
  seedPets?: number;
  /** Delay before every request is handled; wins over the variant's own. */
  latencyMs?: number;
  /**
   * Receives every exception that escaped a handler (answered 500). Default: logged to stderr,
   * except for fault variants, whose 500 answers are the point.
   */
  onInternalError?: (error: unknown) => void;
}

export interface ReferenceHandle {
  /** e.g. http://127.0.0.1:4321/api/v1 (no trailing slash). */
  baseUrl: string;
  port: number;
  /** Stops listening and ends every connection, kept-alive and hung ones included. */
  close(): Promise<void>;
}

/** The largest request body accepted (1 MiB); larger ones get 413. */
export const BODY_LIMIT = 1024 * 1024;
const DEFAULT_BASE_PATH = '/api/v1';

export async function startReference(options: ReferenceOptions): Promise<ReferenceHandle> {
  // The registry (every fault and variation: a dozen modules) is loaded only when a variant is
  // asked for: a suite run starting the clean reference does without it.
  const name = options.variant ?? 'clean';
  const registry = name === 'clean' ? undefined : await import('./variants/index.ts');
  const variant = registry ? registry.findVariant(name) : cleanVariant;
  if (variant === undefined) {
    const known = ['clean', ...registry!.variants.map((v) => v.name)].join(', ');
    throw new Error(`Unknown variant "${options.variant}"; known variants: ${known}`);
  }
  if (options.apiKey === '') throw new Error('apiKey must not be empty');
  const settings = variant.settings ?? {};
  const basePath = normalizePath(settings.basePath ?? options.basePath ?? DEFAULT_BASE_PATH);
  const mountPath = normalizePath(settings.mountPath ?? basePath);

  const store = new PetStore();
  const service = createService(
    { apiKey: options.apiKey, basePath: mountPath, firstId: settings.firstId ?? 1n },
    store,
  );
  variant.apply?.(service);
  const latencyMs = options.latencyMs ?? settings.latencyMs ?? 0;
  if (latencyMs > 0) {
    const handle = service.handle;
    service.handle = async (req) => {
      await sleep(latencyMs);
      return handle(req);
    };
  }
  // Seeds go through the (possibly overridden) id and save steps, like any pet.
  const seedPets = options.seedPets ?? settings.seedPets ?? 0;
  for (let i = 0; i < seedPets; i++) service.savePet({ id: await service.nextId(), ...seedPet(i) });

  const server = createHttpServer({
    service,
    mountPath,
    bodyLimit: BODY_LIMIT,
    lenientParser: settings.lenientParser ?? false,
    onInternalError:
      options.onInternalError ??
      (variant.kind === 'fault'
        ? () => {}
        : (error) => console.error(`[pet store reference] internal error:`, error)),
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}${basePath}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** '/api/v1/' and 'api/v1' become '/api/v1'; '' and '/' become '' (the host root). */
function normalizePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  if (!/^[A-Za-z0-9._~!$&'()*+,;=:@%-]+(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/.test(trimmed)) {
    throw new Error(`Invalid base path "${path}"`);
  }
  return `/${trimmed}`;
}
