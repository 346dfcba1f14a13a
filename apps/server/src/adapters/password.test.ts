import { afterEach, describe, expect, it } from 'vitest';
import {
  hashPassword,
  PasswordChecksBusy,
  passwordWork,
  productionPasswordHashCost,
  setPasswordHashCostForTests,
  verifyPassword,
} from './password.ts';

const testCost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('password hashing and checks (docs/security.md "What is rate-limited")', () => {
  it('hashes new passwords through the limit that checks go through: refused while it is full, made after', async () => {
    let free = () => undefined as void;
    const freed = new Promise<void>((resolve) => (free = resolve));
    const held = Array.from({ length: 66 }, () => passwordWork.run(() => freed));
    await expect(hashPassword('a new password')).rejects.toBeInstanceOf(PasswordChecksBusy);
    await expect(verifyPassword(null, 'a guess')).rejects.toBeInstanceOf(PasswordChecksBusy);
    free();
    await Promise.all(held);
    const hash = await hashPassword('a new password');
    expect(await verifyPassword(hash, 'a new password')).toBe(true);
    expect(await verifyPassword(hash, 'a guess')).toBe(false);
  });

  describe('at the production cost', () => {
    afterEach(() => setPasswordHashCostForTests(testCost));

    it('stores argon2id hashes of 64 MiB, three passes and four lanes (the tests make cheaper ones)', async () => {
      setPasswordHashCostForTests(productionPasswordHashCost);
      const hash = await hashPassword('a new password');
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
      expect(await verifyPassword(hash, 'a new password')).toBe(true);
      expect(await verifyPassword(hash, 'a guess')).toBe(false);
    });

    it('checks a hash made at a lower cost (an older one) by the cost stored in it', async () => {
      setPasswordHashCostForTests(testCost);
      const older = await hashPassword('an old password');
      setPasswordHashCostForTests(productionPasswordHashCost);
      expect(older).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
      expect(await verifyPassword(older, 'an old password')).toBe(true);
      expect(await verifyPassword(older, 'a guess')).toBe(false);
    });
  });
});
