// sprig crypto.go: uuidv4, randBytes, genPrivateKey, AES, derivePassword with node:crypto.
// bcrypt/htpasswd and certificate generation are not supported and fail with a clear error.
import { createCipheriv, createDecipheriv, createHmac, generateKeyPairSync, randomBytes, randomUUID, scryptSync } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import { GoFuncError, goFunc, type FuncMap, type GoValue } from '../../value.ts';
import { num } from './util.ts';

/** golang.org/x/crypto/bcrypt at DefaultCost, with Go's $2a$ prefix. */
function bcryptHash(s: string): string {
  return bcryptjs.hashSync(s, 10).replace(/^\$2b\$/, '$2a$');
}

function unsupported(name: string) {
  return goFunc({ params: [], variadic: 'interface {}', results: ['interface {}', 'error'] }, () => {
    throw new GoFuncError(`${name} is not supported by Bosun's template engine`);
  });
}

const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: ['CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv', 'CvccCvcvCvcvno', 'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc', 'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv',
    'CvccCvccCvcvno', 'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc', 'CvccCvcvCvccno'],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const CHARS: Record<string, string> = {
  V: 'AEIOU', C: 'BCDFGHJKLMNPQRSTVWXYZ', v: 'aeiou', c: 'bcdfghjklmnpqrstvwxyz', A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz', n: '0123456789', o: "@&%?,=[]_:-+*$#!'^~;()/.", x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

/** Master Password's algorithm, as sprig's derivePassword implements it. */
function derivePassword(counter: GoValue, passwordType: string, password: string, user: string, site: string): string {
  const templates = TEMPLATES[passwordType];
  if (templates === undefined) return `cannot find password template ${passwordType}`;
  const u = Buffer.from(user);
  const salt = Buffer.concat([Buffer.from('com.lyndir.masterpassword'), u32(u.length), u]);
  const key = scryptSync(password, salt, 64, { N: 32768, r: 8, p: 2, maxmem: 128 * 32768 * 8 * 2 + 1024 * 1024 });
  const s = Buffer.from(site);
  const seed = createHmac('sha256', key).update(Buffer.concat([Buffer.from('com.lyndir.masterpassword'), u32(s.length), s, u32(num(counter))])).digest();
  const tmpl = templates[seed[0]! % templates.length]!;
  let out = '';
  for (let i = 0; i < tmpl.length; i++) {
    const chars = CHARS[tmpl[i]!]!;
    out += chars[seed[i + 1]! % chars.length];
  }
  return out;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function genPrivateKey(type: string): string {
  switch (type) {
    case '':
    case 'rsa':
      return generateKeyPairSync('rsa', { modulusLength: 4096 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    case 'ecdsa':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    case 'ed25519':
      return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    case 'dsa':
      return generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    default:
      return `Unknown type ${type}`;
  }
}

/** AES-256-CBC with a zero-padded key, random IV prepended, PKCS#7 padding, base64 (sprig's encryptAES). */
function aesKey(password: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(password).copy(key);
  return key;
}

function encryptAES(password: string, plaintext: string): string {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', aesKey(password), iv);
  return Buffer.concat([iv, c.update(plaintext), c.final()]).toString('base64');
}

function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const bad = /[^A-Za-z0-9+/=]/.exec(crypt64);
  if (bad) throw new GoFuncError(`illegal base64 data at input byte ${bad.index}`);
  const data = Buffer.from(crypt64, 'base64');
  if (data.length < 16) throw new GoFuncError('ciphertext too short');
  const d = createDecipheriv('aes-256-cbc', aesKey(password), data.subarray(0, 16));
  return Buffer.concat([d.update(data.subarray(16)), d.final()]).toString('utf8');
}

export const cryptoFunctions: FuncMap = {
  uuidv4: goFunc({ params: [], results: ['string'] }, () => randomUUID()),
  randBytes: goFunc({ params: ['int'], results: ['string', 'error'] }, (n: GoValue) => randomBytes(num(n)).toString('base64')),
  genPrivateKey: goFunc({ params: ['string'], results: ['string'] }, genPrivateKey),
  derivePassword: goFunc({ params: ['uint32', 'string', 'string', 'string', 'string'], results: ['string'] }, derivePassword),
  encryptAES: goFunc({ params: ['string', 'string'], results: ['string', 'error'] }, encryptAES),
  decryptAES: goFunc({ params: ['string', 'string'], results: ['string', 'error'] }, decryptAES),
  bcrypt: goFunc({ params: ['string'], results: ['string'] }, (s: string) => bcryptHash(s)),
  htpasswd: goFunc({ params: ['string', 'string'], results: ['string'] }, (user: string, pw: string) =>
    user.includes(':') ? `invalid username: ${user}` : `${user}:${bcryptHash(pw)}`),
  buildCustomCert: unsupported('buildCustomCert'),
  genCA: unsupported('genCA'),
  genCAWithKey: unsupported('genCAWithKey'),
  genSelfSignedCert: unsupported('genSelfSignedCert'),
  genSelfSignedCertWithKey: unsupported('genSelfSignedCertWithKey'),
  genSignedCert: unsupported('genSignedCert'),
  genSignedCertWithKey: unsupported('genSignedCertWithKey'),
};

