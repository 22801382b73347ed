import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, scryptCost, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores scrypt with the configured cost and verifies only the right password', async () => {
    // scryptCost() is 2^15 outside a test run (next test); the API tests run at 2^10 (vitest.config.ts).
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(new RegExp(`^scrypt\\$${scryptCost()}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{43}$`));
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', 'scrypt$unusable')).toBe(false);
  });

  it('lets only a test run lower the cost, and only to 2^10 at least', () => {
    expect(scryptCost({ TEST_SCRYPT_LOG_N: '10' })).toBe(2 ** 15);
    expect(scryptCost({ NODE_ENV: 'production', TEST_SCRYPT_LOG_N: '10' })).toBe(2 ** 15);
    expect(scryptCost({ NODE_ENV: 'test', TEST_SCRYPT_LOG_N: '10' })).toBe(2 ** 10);
    expect(scryptCost({ NODE_ENV: 'test', TEST_SCRYPT_LOG_N: '4' })).toBe(2 ** 15);
    expect(scryptCost({ NODE_ENV: 'test', TEST_SCRYPT_LOG_N: '12.5' })).toBe(2 ** 15);
    expect(scryptCost({ NODE_ENV: 'test' })).toBe(2 ** 15);
  });

  it('verifies a hash made with another cost: the stored parameters decide', async () => {
    // A hash with N = 2^15, as a server stores it, whatever this run's own cost.
    const salt = randomBytes(16);
    const key = scryptSync('pw', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword('pw', stored)).toBe(true);
    expect(await verifyPassword('pw2', stored)).toBe(false);
  });
});
