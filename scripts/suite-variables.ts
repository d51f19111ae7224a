/**
 * Every variable the suite, its Playwright configuration and the reference it starts read (see
 * tests/support/setup/settings.ts and .env.example). A child process that must not be steered by
 * the caller's shell or .env gets each one set, empty: the default, which dotenv never replaces
 * (the benchmark's runs, every run of the self-tests). selftest/benchmark.test.ts keeps the list
 * complete.
 */
export const suiteVariables = [
  'BASE_URL',
  'API_KEY',
  'CONFORMANCE_TARGETS',
  'CONFORMANCE_ALLOW_NON_V1_BASE',
  'CONFORMANCE_CATEGORY_IDS',
  'CONFORMANCE_CLIENT_CERT',
  'CONFORMANCE_CLIENT_KEY',
  'CONFORMANCE_CLIENT_KEY_PASSPHRASE',
  'CONFORMANCE_DATE',
  'CONFORMANCE_INSECURE_TLS',
  'CONFORMANCE_KNOWN_FAILURES',
  'CONFORMANCE_MAX_PETS',
  'CONFORMANCE_MAX_RESPONSE_BYTES',
  'CONFORMANCE_MAX_WAIT_S',
  'CONFORMANCE_NON_V1_WARNED',
  'CONFORMANCE_PREFLIGHT_AUTH_NAMES',
  'CONFORMANCE_PREFLIGHT_FAILED',
  'CONFORMANCE_RATE',
  'CONFORMANCE_READONLY',
  'CONFORMANCE_REPORT_DIR',
  'CONFORMANCE_REPORTS',
  'CONFORMANCE_REQUEST_TIMEOUT_MS',
  'CONFORMANCE_RUN_ID',
  'CONFORMANCE_RUN_TIMEOUT_MS',
  'CONFORMANCE_SECRET_VARS',
  'CONFORMANCE_SHARD_OF_RUN',
  'CONFORMANCE_SHARE_WORKERS',
  'CONFORMANCE_STRICT',
  'CONFORMANCE_TEST_TIMEOUT_MS',
  'CONFORMANCE_WORKERS',
  'FC_PATH',
  'FC_REPLAY_PATH',
  'FC_RUNS',
  'FC_SEED',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'REFERENCE_PORT',
  'SEED_PETS',
  'VARIANT',
];
