/**
 * Staging as companies deploy it, the connection's side: a forward proxy that demands
 * credentials and alone resolves the target's name, and an https target that requires a client
 * certificate (mutual TLS). The proxy's password, the client key's passphrase and the key itself
 * are as secret as the API key: no report or output of these runs holds any of them.
 *
 * The preflight's own calls (in this process) accept the target's certificate with insecureTls,
 * since NODE_EXTRA_CA_CERTS is read as a process starts; the suite's runs trust it through
 * NODE_EXTRA_CA_CERTS, as a user would.
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { LookupFunction } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Proxies, parseProxy, proxyFor } from '../tests/support/http/proxy.ts';
import { redact, runKeys } from '../tests/support/reporting/redaction.ts';
import { preflight } from '../tests/support/setup/preflight-check.ts';
import { selfSignedCertificate } from './support/certificate.ts';
import { type ForwardProxy, startForwardProxy } from './support/forward-proxy.ts';
import { leakForms, scanBytes, scanFolder } from './support/leak-scan.ts';
import { runSuite } from './support/playwright.ts';
import { type SheddingTarget, startSheddingTarget } from './support/shedding-target.ts';

const apiKey = 'pk-3f9a1c7e5b2d8046';
const proxyUser = 'conformance';
/** Characters a URL must percent-encode: the settings decode them. */
const proxyPassword = 'pr0xy@P4ss:w0rd/9zq';
const passphrase = 'kp-7d1e93b0c4a6f285';
/** A name only the proxy resolves. */
const fakeHost = 'petstore.test';

const proxyOf = (url: string) => {
  const proxy = parseProxy(url);
  assert.ok(typeof proxy !== 'string', String(proxy));
  return proxy;
};

test('NO_PROXY and loopback: which targets go through the proxy', () => {
  const proxy = proxyOf('http://u:p%40ss@proxy.example:3128');
  assert.equal(proxy.authorization, `Basic ${Buffer.from('u:p@ss').toString('base64')}`);
  assert.equal(proxy.shown, 'proxy.example:3128', 'named without its credentials');
  assert.equal(proxyOf('proxy.example').port, 80, 'a proxy without a scheme is http');
  assert.match(String(parseProxy('https://proxy.example')), /only http:\/\/ proxies/);
  const through = (noProxy: string, host: string, port = 443) =>
    proxyFor({ https: proxy, noProxy }, true, host, port) !== undefined;
  assert.equal(through('', 'api.example.com'), true);
  assert.equal(through('', '127.0.0.1'), false, 'loopback is never proxied');
  assert.equal(through('', 'localhost'), false);
  assert.equal(through('', '::1'), false);
  assert.equal(through('', '::ffff:127.0.0.1'), false);
  assert.equal(through('', '0:0:0:0:0:0:0:1'), false);
  assert.equal(through('*', 'api.example.com'), false);
  assert.equal(through('example.com', 'api.example.com'), false, 'a suffix');
  assert.equal(through('example.com', 'example.com'), false);
  assert.equal(through('.example.com', 'api.example.com'), false);
  assert.equal(through('*.example.com', 'api.example.com'), false);
  assert.equal(through('example.com', 'badexample.com'), true, 'a suffix at a dot only');
  assert.equal(through('other.org, EXAMPLE.com', 'api.example.com'), false, 'a list, any case');
  assert.equal(through('example.com:8443', 'api.example.com'), true, 'another port');
  assert.equal(through('example.com:443', 'api.example.com'), false, 'its port');
  assert.equal(through('10.1.2.3', '10.1.2.3'), false, 'an address');
  assert.equal(through('10.0.0.0/8', '10.1.2.3'), false, 'a range');
  assert.equal(through('10.0.0.0/8', '11.1.2.3'), true);
  assert.equal(through('2001:db8::1', '2001:db8:0::1'), false, 'an IPv6 address, any spelling');
  assert.equal(through('[2001:db8::1]:443', '2001:db8::1'), false);
  const http: Proxies = { https: proxy, noProxy: '' };
  assert.equal(proxyFor(http, false, 'api.example.com', 80), undefined, 'no HTTP_PROXY');
});

describe('a proxy that demands credentials, a target that requires a client certificate', () => {
  let dir: string;
  let proxy: ForwardProxy;
  let plain: SheddingTarget;
  let mutual: SheddingTarget;
  const files = { ca: '', cert: '', key: '', plainKey: '' };
  let client: { cert: string; key: string; encryptedKey: string };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-'));
    const server = selfSignedCertificate(fakeHost, [fakeHost, '127.0.0.1']);
    const own = selfSignedCertificate('conformance client', [], 2, ['client']);
    const encryptedKey = createPrivateKey(own.key).export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase,
    }) as string;
    client = { cert: own.cert, key: own.key, encryptedKey };
    for (const [name, text] of [
      ['ca', server.cert],
      ['cert', own.cert],
      ['key', encryptedKey],
      ['plainKey', own.key],
    ] as const) {
      files[name] = join(dir, `${name}.pem`);
      writeFileSync(files[name], text);
    }
    plain = await startSheddingTarget({ apiKey, keepAliveMs: 5000 });
    mutual = await startSheddingTarget({
      apiKey,
      keepAliveMs: 5000,
      tls: { ...server, clientCa: own.cert },
    });
    proxy = await startForwardProxy({
      user: proxyUser,
      password: proxyPassword,
      hosts: { [fakeHost]: '127.0.0.1' },
    });
  });
  after(async () => {
    await proxy.close();
    await plain.close();
    await mutual.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The target's base address under the name only the proxy resolves. */
  const named = (target: SheddingTarget) => target.baseUrl.replace('127.0.0.1', fakeHost);
  const proxiesWith = (url: string, noProxy = ''): Proxies => ({
    https: proxyOf(url),
    http: proxyOf(url),
    noProxy,
  });
  const check = (baseUrl: string, more: Partial<Parameters<typeof preflight>[0]> = {}) =>
    preflight({
      baseUrl,
      apiKey,
      timeoutMs: 5_000,
      insecureTls: true,
      maxResponseBytes: 1_000_000,
      ...more,
    });
  /** Neither the proxy's password, nor the passphrase, nor the key, in any form. */
  const secrets = () => [
    leakForms(proxyPassword),
    leakForms(passphrase),
    leakForms(apiKey),
    leakForms(client.key.split('\n')[1]!),
    leakForms(client.encryptedKey.split('\n')[2]!),
  ];
  const leaksIn = (text: string) =>
    secrets().flatMap((forms) => scanBytes(Buffer.from(text), 'output', forms));

  test('the preflight through the proxy: a refusal, an unreachable proxy, an unresolvable target', async () => {
    const wrong = await check(named(plain), {
      proxies: proxiesWith(proxy.url.replace(encodeURIComponent(proxyPassword), 'nope')),
    });
    assert.ok(!wrong.ok);
    assert.match(
      wrong.problem,
      /^the target is unreachable: the proxy refused its credentials \(407\)/,
    );
    assert.match(wrong.problem, /HTTPS_PROXY/);
    const none = await check(named(plain), { proxies: proxiesWith(proxy.plainUrl) });
    assert.ok(!none.ok);
    assert.match(none.problem, /the proxy refused its credentials \(407\)/);
    // A port nothing listens on: the proxy cannot be reached.
    const closed = await check(named(plain), { proxies: proxiesWith('http://u:p@127.0.0.1:9') });
    assert.ok(!closed.ok);
    assert.match(closed.problem, /^the target is unreachable: the proxy cannot be reached/);
    const unknown = await check(plain.baseUrl.replace('127.0.0.1', 'nowhere.test'), {
      proxies: proxiesWith(proxy.url),
    });
    assert.ok(!unknown.ok);
    assert.match(
      unknown.problem,
      /^the target is unreachable: the proxy could not reach the target/,
    );
    const through = await check(named(plain), { proxies: proxiesWith(proxy.url) });
    assert.ok(through.ok, through.ok ? '' : through.problem);
    for (const result of [wrong, none, closed, unknown, through]) {
      const text = result.ok ? result.summary : result.problem;
      assert.deepEqual(leaksIn(text), [], text);
      assert.doesNotMatch(text, /pr0xy|P4ss/);
    }
  });

  test('NO_PROXY: a target it names is reached directly', async () => {
    // Resolved here, so that no query leaves the machine: petstore.test resolves nowhere but
    // through the proxy, so a direct connection fails on its name.
    const looked: string[] = [];
    const lookup = ((hostname: string, _options: unknown, callback: (error: Error) => void) => {
      looked.push(hostname);
      callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
      );
    }) as unknown as LookupFunction;
    const tunnel = `${fakeHost}:${new URL(plain.baseUrl).port}`;
    const before = proxy.tunnels[tunnel] ?? 0;
    for (const noProxy of ['.test', fakeHost, `${fakeHost}:${new URL(plain.baseUrl).port}`, '*']) {
      looked.length = 0;
      const direct = await check(named(plain), {
        proxies: proxiesWith(proxy.url, noProxy),
        lookup,
      });
      assert.ok(!direct.ok);
      assert.match(direct.problem, /DNS: the host name does not resolve/, noProxy);
      assert.deepEqual(looked, [fakeHost], `${noProxy}: connected directly`);
    }
    assert.equal(proxy.tunnels[tunnel] ?? 0, before, 'no tunnel was asked for');
    // Another port than NO_PROXY names: through the proxy.
    looked.length = 0;
    const other = await check(named(plain), {
      proxies: proxiesWith(proxy.url, `${fakeHost}:1`),
      lookup,
    });
    assert.ok(other.ok, other.ok ? '' : other.problem);
    assert.deepEqual(looked, []);
  });

  test('a target that requires a client certificate: refused without one, checked with it', async () => {
    const without = await check(mutual.baseUrl);
    assert.ok(!without.ok);
    assert.match(
      without.problem,
      /^the target is unreachable: TLS: the target asks for a client certificate and refused the handshake without one: set CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY/,
    );
    const withIt = await check(mutual.baseUrl, {
      clientCertificate: { cert: client.cert, key: client.encryptedKey, passphrase },
    });
    assert.ok(withIt.ok, withIt.ok ? '' : withIt.problem);
  });

  /**
   * A run of the suite with these settings: whole, as a user's run through a proxy is, or (`short`)
   * the authentication checks alone, for a run that is to stop at its preflight.
   */
  async function runWith(baseUrl: string, env: Record<string, string>, short = false) {
    const reports = mkdtempSync(join(dir, 'run-'));
    const run = await runSuite(
      short ? ['--grep', '§5 Authentication'] : [],
      {
        BASE_URL: baseUrl,
        API_KEY: apiKey,
        CONFORMANCE_REPORTS: 'json,html',
        ...env,
      },
      { dir: reports },
    );
    const leaks = [
      ...secrets().flatMap((forms) => scanFolder(reports, forms)),
      ...leaksIn(run.output),
    ];
    return { run, leaks };
  }
  const proxyEnv = (url: string) => ({
    HTTPS_PROXY: url,
    https_proxy: url,
    HTTP_PROXY: url,
    http_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
  });
  const failedOf = (run: { tests: { outcome: string; title: string; error: string }[] }) =>
    run.tests
      .filter((each) => each.outcome === 'failed')
      .map((each) => `${each.title}: ${each.error}`);

  /** The whole suite against the target through the proxy: conformant, tunnelled, no secret shown. */
  async function passesThroughProxy(target: SheddingTarget, env: Record<string, string>) {
    const port = new URL(target.baseUrl).port;
    const before = proxy.tunnels[`${fakeHost}:${port}`] ?? 0;
    const { run, leaks } = await runWith(named(target), { ...proxyEnv(proxy.url), ...env });
    assert.equal(run.exitCode, 0, run.output.slice(-3000));
    assert.deepEqual(failedOf(run), []);
    // The whole suite, every requirement decided: a user's run, through the tunnel.
    assert.equal(run.summary?.verdict, 'conformant', run.output.slice(-3000));
    assert.ok((proxy.tunnels[`${fakeHost}:${port}`] ?? 0) > before, 'through the proxy');
    assert.deepEqual(leaks, []);
    // The proxy's user is no secret: text that shares 8 characters with it stays.
    assert.match(run.output, /names start with "conformance-/);
  }

  test('the suite over http through the proxy: passes, and no report holds a secret', () =>
    passesThroughProxy(plain, {}));

  test('the suite over https through the proxy, with a client certificate: passes, no secret shown', () =>
    passesThroughProxy(mutual, {
      NODE_EXTRA_CA_CERTS: files.ca,
      CONFORMANCE_CLIENT_CERT: files.cert,
      CONFORMANCE_CLIENT_KEY: files.key,
      CONFORMANCE_CLIENT_KEY_PASSPHRASE: passphrase,
    }));

  test('the suite without the client certificate stops at the preflight, saying so', async () => {
    const { run, leaks } = await runWith(mutual.baseUrl, { NODE_EXTRA_CA_CERTS: files.ca }, true);
    assert.equal(run.exitCode, 1);
    assert.match(
      run.output,
      /Preflight failed: the target is unreachable: TLS: the target asks for a client certificate[^\n]*CONFORMANCE_CLIENT_CERT/,
    );
    assert.equal(run.tests.filter((each) => each.outcome === 'passed').length, 0);
    assert.deepEqual(leaks, []);
  });

  test('a wrong passphrase stops the run as it loads, naming the variable, not the secret', async () => {
    const { run, leaks } = await runWith(mutual.baseUrl, {
      NODE_EXTRA_CA_CERTS: files.ca,
      CONFORMANCE_CLIENT_CERT: files.cert,
      CONFORMANCE_CLIENT_KEY: files.key,
      CONFORMANCE_CLIENT_KEY_PASSPHRASE: 'not-the-passphrase',
    });
    assert.notEqual(run.exitCode, 0);
    assert.match(run.output, /CONFORMANCE_CLIENT_KEY_PASSPHRASE does not decrypt it/);
    assert.doesNotMatch(run.output, /not-the-passphrase/);
    assert.deepEqual(leaks, []);
  });

  test('the proxy password is redacted as the key is', () => {
    const keys = runKeys({
      CONFORMANCE_SECRET_VARS: 'API_KEY',
      API_KEY: apiKey,
      HTTPS_PROXY: proxy.url,
    });
    const basic = Buffer.from(`${proxyUser}:${proxyPassword}`).toString('base64');
    const text = `${proxyPassword} ${encodeURIComponent(proxyPassword)} ${basic}`;
    assert.deepEqual(leaksIn(redact(text, keys)), []);
  });
});
