import { expect } from 'vitest';

/**
 * Checks the attributes that let the browser fetch a picture in the width it is drawn at
 * (lib/pictures.ts): its srcset, its sizes, and whether it is fetched at once and first (`first`)
 * or when it nears the screen.
 */
export function expectSizedPicture(
  img: Element | null | undefined,
  want: { srcset: string; sizes: string; first: boolean },
): void {
  expect(img).toHaveAttribute('srcset', want.srcset);
  expect(img).toHaveAttribute('sizes', want.sizes);
  if (want.first) {
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).not.toHaveAttribute('loading');
  } else {
    expect(img).not.toHaveAttribute('fetchpriority');
  }
}
