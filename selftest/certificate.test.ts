/**
 * The self-tests' certificate builder (selftest/support/certificate.ts), which makes the https targets' certificates: its DER is what
 * Node's X.509 parser and TLS stack read, its signature verifies, its names are checked, and a
 * client trusting it as a CA (as NODE_EXTRA_CA_CERTS does) completes a verified handshake.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { test } from 'node:test';
import { der, integer, oid, selfSignedCertificate } from './support/certificate.ts';

test('DER: lengths short and long, object identifiers, integers kept non-negative', () => {
  assert.deepEqual(der(0x04, Buffer.alloc(3)), Buffer.from([0x04, 3, 0, 0, 0]));
  assert.deepEqual(der(0x04, Buffer.alloc(200)).subarray(0, 3), Buffer.from([0x04, 0x81, 200]));
  assert.deepEqual(der(0x04, Buffer.alloc(300)).subarray(0, 4), Buffer.from([0x04, 0x82, 1, 44]));
  // ecdsa-with-SHA256 and the common name, as RFC 5758 and X.520 spell them.
  assert.equal(oid('1.2.840.10045.4.3.2').toString('hex'), '06082a8648ce3d040302');
  assert.equal(oid('2.5.4.3').toString('hex'), '0603550403');
  assert.equal(integer(Buffer.from([0x80])).toString('hex'), '02020080');
  assert.equal(integer(Buffer.from([0, 0, 0x7f])).toString('hex'), '02017f');
  assert.equal(integer(Buffer.from([0])).toString('hex'), '020100');
});

test('a self-signed certificate: parsed, signed by its key, for its names, a CA', () => {
  const started = Date.now();
  const { key, cert } = selfSignedCertificate('guard', ['127.0.0.1', '::1', 'localhost'], 2);
  const parsed = new X509Certificate(cert);
  assert.equal(parsed.subject, 'CN=guard');
  assert.equal(parsed.issuer, 'CN=guard');
  assert.ok(parsed.verify(parsed.publicKey), 'signed by its own key');
  assert.ok(parsed.checkPrivateKey(createPrivateKey(key)), 'the key returned is its key');
  assert.equal(parsed.checkIP('127.0.0.1'), '127.0.0.1');
  assert.equal(parsed.checkIP('::1'), '::1');
  assert.equal(parsed.checkHost('localhost'), 'localhost');
  assert.equal(parsed.checkHost('example.com'), undefined);
  assert.equal(parsed.ca, true);
  // Valid now (an hour of clock skew allowed) and for the days asked.
  const [from, to] = [Date.parse(parsed.validFrom), Date.parse(parsed.validTo)];
  assert.ok(from <= started - 3_000_000 && to >= started + 2 * 86_400_000 - 2_000, parsed.validTo);
  // Each certificate is new: its own key and serial number.
  const other = new X509Certificate(selfSignedCertificate('guard').cert);
  assert.notEqual(other.serialNumber, parsed.serialNumber);
  assert.notEqual(other.fingerprint256, parsed.fingerprint256);
  assert.equal(other.subjectAltName, undefined);
});

test('a TLS client that trusts it verifies a handshake; one that does not is refused', async () => {
  const credentials = selfSignedCertificate('127.0.0.1', ['127.0.0.1']);
  const server = tls.createServer(credentials, (socket) => socket.end('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connect = (ca?: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, ...(ca ? { ca } : {}) }, () => {
        socket.once('data', (data: Buffer) => resolve(data.toString()));
      });
      socket.on('error', reject);
    });
  try {
    assert.equal(await connect(credentials.cert), 'hello');
    await assert.rejects(connect(), /self-signed certificate/);
  } finally {
    server.close();
  }
});
