import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';

/** The default light theme's primary colour, orange (portal-spec §9 "Default themes"), as CSS reads it. */
function defaultPrimary(): string {
  const light = defaultGlobalConfig.themes.options.find((o) => o.key === defaultGlobalConfig.themes.default_light);
  const hex = light?.appearance.primary ?? '';
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/**
 * Hovers `button` and checks its tooltip is the portal's (portal-spec §9 "Tooltip on icon buttons":
 * on top, multiline at most 275 px wide, orange), not the library's, then leaves it.
 */
export async function expectPortalTooltip(user: UserEvent, button: HTMLElement, text: string): Promise<void> {
  expect(button).not.toHaveAttribute('title');
  // Room above the button, so the tooltip stays on top.
  const place = vi.spyOn(button, 'getBoundingClientRect').mockReturnValue(new DOMRect(400, 300, 40, 40));
  try {
    await user.hover(button);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(text);
    expect(tooltip).toHaveAttribute('data-placement', 'top');
    const style = getComputedStyle(tooltip);
    expect(style.maxWidth).toBe('275px');
    expect(style.whiteSpace).toBe('pre-line');
    expect(style.backgroundColor).toBe(defaultPrimary());
    await user.unhover(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  } finally {
    place.mockRestore();
  }
}
