/**
 * The suite's fixtures: `api`, a pet store client for the configured target, `pets`, which
 * creates labelled pets and grows the store to the size a check needs (pets.ts), and `advise`,
 * which records advisories (advisory.ts).
 *
 * Every test reports how many requests it sent and pets it created (as annotations the reporter
 * sums), and a failing test gets the whole exchange attached, with curl commands to repeat it.
 */
import { test as base } from '@playwright/test';
import { Advisor } from './advisory.ts';
import { PetStoreClient } from '../http/client.ts';
import { Ledger } from '../http/ledger.ts';
import { exchangesLog } from '../reporting/failure-text.ts';
import { settings } from '../setup/settings.ts';
import { expect } from './matchers.ts';
import { Pets, type StoreFloor } from './pets.ts';

export const test = base.extend<
  { api: PetStoreClient; pets: Pets; advise: Advisor; conformanceStrict: boolean },
  { storeFloor: StoreFloor }
>({
  /** Strict mode: flagged advisories fail their tests (CONFORMANCE_STRICT=1). */
  conformanceStrict: [settings.strict, { option: true }],

  advise: async ({ conformanceStrict }, use) => use(new Advisor(conformanceStrict)),

  // Playwright requires the object pattern even when a fixture uses no other fixture.
  // eslint-disable-next-line no-empty-pattern
  storeFloor: [async ({}, use) => use({ atLeast: 0 }), { scope: 'worker' }],

  api: async ({ request, baseURL }, use, testInfo) => {
    const baseUrl = baseURL ?? settings.baseUrl;
    const ledger = new Ledger(settings.runId, baseUrl, settings.maxPets);
    const api = new PetStoreClient(request, {
      baseUrl,
      apiKey: settings.apiKey,
      timeoutMs: settings.requestTimeoutMs,
      ledger,
      readOnly: settings.readOnly,
      maxResponseBytes: settings.maxResponseBytes,
    });
    await use(api);
    testInfo.annotations.push({ type: 'requests', description: String(ledger.requests) });
    if (ledger.petsCreated > 0) {
      testInfo.annotations.push({ type: 'pets created', description: String(ledger.petsCreated) });
    }
    if (testInfo.status !== testInfo.expectedStatus && api.exchanges.length > 0) {
      const log = exchangesLog(api.exchanges);
      await testInfo.attach('exchanges', { body: api.redact(log), contentType: 'text/plain' });
    }
  },

  pets: async ({ api, storeFloor }, use) => use(new Pets(api, storeFloor)),
});

export { expect };
