import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * Passwords are stored as scrypt hashes (memory-hard, in node:crypto, no native add-on). Parameters:
 * N = 2^15, r = 8, p = 1 → 32 MiB and roughly 50–100 ms per hash on this hardware; 16-byte salt;
 * 32-byte key. The format records the parameters so they can be raised later without breaking old hashes:
 *   scrypt$N$r$p$salt(base64url)$hash(base64url)
 */
const N = scryptCost();
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * N for new hashes: 2^15, unless a test run (NODE_ENV=test) lowers it with TEST_SCRYPT_LOG_N (10 to 15),
 * as Django's test settings swap in a fast hasher. sqlmap's login target signs in thousands of times
 * with unknown names, each verified against the dummy hash: at full cost that was minutes of CI's two
 * cores spent on hashing, which is not what it tests. Outside a test run the variable is ignored.
 */
export function scryptCost(env: NodeJS.ProcessEnv = process.env): number {
  const logN = Number(env.TEST_SCRYPT_LOG_N);
  const lowered = env.NODE_ENV === 'test' && Number.isInteger(logN) && logN >= 10 && logN <= 15;
  return 2 ** (lowered ? logN : 15);
}

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashText, 'base64url');
  const key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, verified when the username is unknown so that a wrong username costs
 * the same time as a wrong password (no account enumeration by timing).
 */
let dummyHash: Promise<string> | null = null;
export const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));
