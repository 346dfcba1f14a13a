import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

/**
 * Checks that focus is kept in a container that has it: Tab goes through its elements from `first`
 * to `last` (`count` of them), past `last` comes round to `first`, and Shift+Tab back to `last`.
 */
export async function expectTabKeptInside(
  user: UserEvent,
  first: HTMLElement,
  last: HTMLElement,
  count: number,
): Promise<void> {
  await user.tab();
  expect(first).toHaveFocus();
  for (let i = 1; i < count; i++) await user.tab();
  expect(last).toHaveFocus();
  await user.tab();
  expect(first).toHaveFocus();
  await user.tab({ shift: true });
  expect(last).toHaveFocus();
}
