// `npm run reference`: starts the reference service from environment variables.
//   PORT (default 4010), API_KEY (default reference-key), BASE_PATH (default /api/v1),
//   VARIANT (default clean), SEED_PETS (default 0, or the variant's number).
import { startReference } from './server.ts';
import { findVariant } from './variants/index.ts';

function integer(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || value > max) {
    throw new Error(`${name} must be an integer from 0 to ${max}, got "${raw}"`);
  }
  return value;
}

async function main(): Promise<void> {
  const apiKey = process.env.API_KEY || 'reference-key';
  const variant = process.env.VARIANT || 'clean';
  const handle = await startReference({
    port: integer('PORT', 4010, 65535),
    apiKey,
    basePath: process.env.BASE_PATH || '/api/v1',
    variant,
    // Unset leaves the variant's own number (large-store) in force.
    seedPets: process.env.SEED_PETS ? integer('SEED_PETS', 0, 1_000_000) : undefined,
  });
  console.log(
    `Pet store reference listening at ${handle.baseUrl} (API key: ${apiKey}, variant: ${variant})`,
  );
  console.log(`Try: curl -i -H 'Authorization: Bearer ${apiKey}' ${handle.baseUrl}/pets`);
  const from = findVariant(variant)?.conformantFrom;
  if (from) {
    console.log(
      `Note: ${variant} is conformant only from ${from}: check it with CONFORMANCE_DATE=${from} or later.`,
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal means "now".
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = true;
    void handle.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    `Pet store reference failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
});
