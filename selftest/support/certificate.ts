/**
 * A self-signed X.509 v3 certificate made in memory, for the self-tests' https targets: Node makes
 * keys but not certificates, and the project must not need the openssl command or keep a key in
 * the repository. A small DER encoder
 * writes the certificate (RFC 5280) for an EC P-256 key, signed with ECDSA and SHA-256.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** One DER element: its tag, its length, its contents. */
export function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  let length: Buffer;
  if (body.length < 0x80) length = Buffer.from([body.length]);
  else {
    // Long form: the number of length bytes, then the length big-endian.
    const digits: number[] = [];
    for (let left = body.length; left > 0; left = Math.floor(left / 256))
      digits.unshift(left & 0xff);
    length = Buffer.from([0x80 | digits.length, ...digits]);
  }
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const sequence = (...items: Buffer[]) => der(0x30, ...items);

/** An object identifier from its dotted form ("1.2.840.10045.4.3.2"). */
export function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes: number[] = [first * 40 + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let left = Math.floor(arc / 128); left > 0; left = Math.floor(left / 128)) {
      base128.unshift((left & 0x7f) | 0x80);
    }
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** A non-negative INTEGER from its big-endian bytes: no redundant leading zero, sign bit clear. */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return der(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.from([0]) : Buffer.alloc(0), trimmed);
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5), to the second. */
function time(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]|\.\d+/g, '');
  return date.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(text.slice(2)))
    : der(0x18, Buffer.from(text));
}

/** A name of one attribute: the common name. */
const name = (commonName: string) =>
  sequence(der(0x31, sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName)))));

const extension = (id: string, critical: boolean, value: Buffer) =>
  sequence(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));

/** A subjectAltName entry: an IP address (4 or 16 bytes) or a DNS name. */
function altName(host: string): Buffer {
  if (isIP(host) === 4) return der(0x87, Buffer.from(host.split('.').map(Number)));
  if (isIP(host) === 6) {
    const [head = '', tail = ''] = host.split('::');
    const groups = (text: string) => (text === '' ? [] : text.split(':'));
    const [before, after] = [groups(head), groups(tail)];
    const all = host.includes('::')
      ? [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after]
      : before;
    return der(0x87, Buffer.from(all.map((group) => group.padStart(4, '0')).join(''), 'hex'));
  }
  return der(0x82, Buffer.from(host));
}

export interface Credentials {
  /** PEM, for `tls.createSecureContext` or an https server. */
  key: string;
  cert: string;
}

/**
 * A new key and a certificate for it, signed by itself: valid from an hour ago (clocks differ) for
 * `days`, for the names of `hosts` (DNS names or IP addresses), and usable as its own CA (so that
 * NODE_EXTRA_CA_CERTS can trust it, as openssl's `req -x509` makes one).
 */
export function selfSignedCertificate(
  commonName: string,
  hosts: string[] = [],
  days = 2,
  /** What it may prove: a server's name, a client (mutual TLS), or both. */
  purposes: ('server' | 'client')[] = ['server'],
): Credentials {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const extensions = [
    // basicConstraints: a CA (critical).
    extension('2.5.29.19', true, sequence(der(0x01, Buffer.from([0xff])))),
    // keyUsage: digitalSignature and keyCertSign (bits 0 and 5; 2 unused bits) (critical).
    extension('2.5.29.15', true, der(0x03, Buffer.from([0x02, 0x84]))),
    // extKeyUsage: serverAuth, clientAuth.
    extension(
      '2.5.29.37',
      false,
      sequence(
        ...purposes.map((purpose) =>
          oid(purpose === 'server' ? '1.3.6.1.5.5.7.3.1' : '1.3.6.1.5.5.7.3.2'),
        ),
      ),
    ),
    // subjectKeyIdentifier: a hash of the key (RFC 7093 allows any such method).
    extension('2.5.29.14', false, der(0x04, createHash('sha1').update(spki).digest())),
    ...(hosts.length > 0 ? [extension('2.5.29.17', false, sequence(...hosts.map(altName)))] : []),
  ];
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    name(commonName),
    sequence(time(new Date(now - 3600_000)), time(new Date(now + days * 86_400_000))),
    name(commonName),
    spki,
    der(0xa3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
  };
}
