import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { IndexField } from '@vitrine/contract/search';
import { carryBootData, removeBootData } from '../test/bootData.ts';
import { useAvailableFiles, useGlobalConfig } from './config.ts';
import { useIndexFields } from './searchInput.ts';

// No handlers: a call to the server fails the test.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
afterEach(removeBootData);

const field: IndexField = {
  field_name: 'keywords',
  default_labels: { en: 'Keywords', de: 'Schlagwörter' },
  is_facet: true,
  range_facet: false,
  multi_valued: true,
  origin: 'metadata',
  type: 'string',
  options: {},
};

/** Every uploadable file, none uploaded. */
const noFiles = Object.fromEntries(configFileNames.map((n) => [n, false])) as BootData['files'];

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

describe("the first screen's config from the portal's page (config/app-page.ts)", () => {
  it('has the global config, the uploaded files and the index fields at once, without a call', () => {
    const config = { ...defaultGlobalConfig, global: { ...defaultGlobalConfig.global, website_title: 'Archiv' } };
    const files = { ...noFiles, dashboardHero: true };
    carryBootData({ config, files, locales: ['de', 'en'], messages: {}, fields: [field] });
    const { result } = renderHook(() => [useGlobalConfig(), useAvailableFiles(), useIndexFields()] as const, {
      wrapper,
    });
    const [global, uploaded, fields] = result.current;
    expect(global.status).toBe('success');
    expect(global.config.global.website_title).toBe('Archiv');
    expect(uploaded.dashboardHero).toBe(true);
    expect(fields.data).toEqual([field]);
  });
});
