import { describe, expect, it } from 'vitest';
import { hashPassword, PasswordChecksBusy, passwordWork, verifyPassword } from './password.ts';

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
});
