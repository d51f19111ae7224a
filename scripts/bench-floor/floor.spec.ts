/** The benchmark's floor: one test, one request (see playwright.config.ts beside it). */
import { expect, test } from '@playwright/test';

test('one request', async ({ request }) => {
  const url = process.env.BENCH_FLOOR_URL;
  if (!url) throw new Error('BENCH_FLOOR_URL is not set: the floor runs from npm run benchmark');
  const response = await request.get(url);
  expect(response.status()).toBe(200);
});
