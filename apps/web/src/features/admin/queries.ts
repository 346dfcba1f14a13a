import { type QueryClient, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  allLanguagesCall,
  checkVersionCall,
  configHistoryCall,
  contentLocalesCall,
  configRollbackCall,
  customPageCall,
  damCollectionsCall,
  indexFieldsCall,
  listTranslationsCall,
  saveCustomPageCall,
  saveGlobalConfigCall,
  saveTranslationsCall,
  storedConfigCall,
  storedTranslationsCall,
  uploadConfigFileCall,
} from '@vitrine/contract/endpoints';
import { IMAGE_WARNING_BYTES, type ConfigFileName, type MessageSet } from '@vitrine/contract/config';
import { TEXTS_VERSION } from '@vitrine/contract/config-migrations';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { configKeys } from '../../stores/config.ts';
import { bundledTexts } from '../../stores/i18n.ts';
import { ApiError, callApi, nullIfNotFound } from '../../lib/apiClient.ts';
import { toast } from '../../lib/toast.ts';

export const adminKeys = {
  all: ['admin'] as const,
  stored: () => [...adminKeys.all, 'stored'] as const,
  storedTexts: () => [...adminKeys.all, 'stored-texts'] as const,
  bundledTexts: () => [...adminKeys.all, 'bundled-texts'] as const,
  history: () => [...adminKeys.all, 'history'] as const,
  fields: () => [...adminKeys.all, 'fields'] as const,
  damCollections: () => [...adminKeys.all, 'dam-collections'] as const,
  locales: () => [...adminKeys.all, 'locales'] as const,
  texts: (lang: string) => [...adminKeys.all, 'texts', lang] as const,
  pageLocales: () => [...adminKeys.all, 'pages'] as const,
  page: (lang: string) => [...adminKeys.all, 'pages', lang] as const,
  backendVersion: () => [...adminKeys.all, 'backend-version'] as const,
  contentLocales: () => [...adminKeys.all, 'content-locales'] as const,
  knownLanguages: (lang: string) => [...adminKeys.all, 'known-languages', lang] as const,
};

/** Loaded once on entry; the admin area's own drafts hold the edits. */
const onEntry = { staleTime: Infinity, retry: false, refetchOnWindowFocus: false } as const;

export function useStoredConfig() {
  return useQuery({
    queryKey: adminKeys.stored(),
    queryFn: ({ signal }) => callApi(storedConfigCall, { signal }),
    ...onEntry,
    // Loaded afresh on every entry into the admin area (admin-spec §2).
    gcTime: 0,
  });
}

/** Every translation set as stored, to bring older ones to the current texts (admin-spec §4). */
export function useStoredTexts() {
  return useQuery({
    queryKey: adminKeys.storedTexts(),
    queryFn: async ({ signal }) => (await callApi(storedTranslationsCall, { signal })).translations,
    ...onEntry,
    gcTime: 0,
  });
}

/** The bundled texts, a chunk of their own loaded beside the stored ones (the upgrade question compares them). */
export function useBundledTexts() {
  return useQuery({ queryKey: adminKeys.bundledTexts(), queryFn: bundledTexts, staleTime: Infinity });
}

const indexFieldsQuery = {
  queryKey: adminKeys.fields(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(indexFieldsCall, { signal })).visible_fields,
  ...onEntry,
};

export function useIndexFields() {
  return useQuery(indexFieldsQuery);
}

/** Every DAM collection of the catalogue, to choose those the dashboard shows (admin-spec §2 entry). */
export const damCollectionsQuery = {
  queryKey: adminKeys.damCollections(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(damCollectionsCall, { signal })).collections,
  ...onEntry,
};

export function useDamCollections() {
  return useQuery(damCollectionsQuery);
}

export function useConfigHistory() {
  return useQuery({
    queryKey: adminKeys.history(),
    queryFn: ({ signal }) => callApi(configHistoryCall, { signal, query: { limit: 20 } }),
  });
}

/** The portal reads the saved config at once; the history gains an entry. */
function useAfterConfigSave() {
  const client = useQueryClient();
  return (saved: GlobalConfig) => {
    client.setQueryData(configKeys.global(), saved);
    void client.invalidateQueries({ queryKey: adminKeys.history() });
  };
}

export function useSaveConfig() {
  const after = useAfterConfigSave();
  return useMutation({
    mutationFn: (config: GlobalConfig) => callApi(saveGlobalConfigCall, { body: config }),
    onSuccess: (saved) => {
      after(saved);
      toast.show('toast.config.saved', 'success');
    },
    onError: () => toast.show('toast.config.save_error', 'error'),
  });
}

export function useRollback() {
  const after = useAfterConfigSave();
  return useMutation({
    mutationFn: (id: number) => callApi(configRollbackCall, { body: { id } }),
    onSuccess: (saved) => {
      after(saved);
      toast.show('toast.config.saved', 'success');
    },
    onError: () => toast.show('toast.config.save_error', 'error'),
  });
}

const translationLocalesQuery = {
  queryKey: adminKeys.locales(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const answer = await callApi(listTranslationsCall, { signal });
    return 'locales' in answer && Array.isArray(answer.locales) ? answer.locales : [];
  },
  ...onEntry,
};

export function useTranslationLocales() {
  return useQuery(translationLocalesQuery);
}

/** A language's texts as served; an empty set for a language that has none yet. */
export const textsQuery = (lang: string) => ({
  queryKey: adminKeys.texts(lang),
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    ((await nullIfNotFound(callApi(listTranslationsCall, { signal, query: { lang } }))) ?? {}) as MessageSet,
  ...onEntry,
});

export function useTexts(lang: string) {
  return useQuery(textsQuery(lang));
}

/** What the server says is wrong with a refused save (a 400 names the key, line or field). */
function refusal(error: Error): string | undefined {
  return error instanceof ApiError && error.status === 400 ? error.body?.message : undefined;
}

/** The notices of a translation save: the translation editor's, or a new language's (admin-spec §8). */
const textNotices = {
  translations: { saved: 'toast.translations.saved', error: 'toast.translations.error' },
  language: { saved: 'toast.language.updated', error: 'toast.language.error' },
} as const;

export function useSaveTexts(notices: keyof typeof textNotices = 'translations') {
  const client = useQueryClient();
  return useMutation({
    // What this version of the admin area saves is in the current text model, so it says so.
    mutationFn: ({ lang, texts }: { lang: string; texts: MessageSet }) =>
      callApi(saveTranslationsCall, { query: { lang }, body: withTextsVersion(texts) }),
    onSuccess: (_answer, { lang, texts }) => {
      client.setQueryData(adminKeys.texts(lang), texts);
      // The portal serves a saved set over the bundled texts; the editor shows what it serves.
      void client.invalidateQueries({ queryKey: adminKeys.texts(lang) });
      void client.invalidateQueries({ queryKey: adminKeys.locales() });
      toast.show(textNotices[notices].saved, 'success');
    },
    onError: (error) => toast.show(textNotices[notices].error, 'error', undefined, refusal(error)),
  });
}

/**
 * Stores the bundled texts of every bundled language on a server that has none (admin-spec §4
 * step 6: reset to factory settings), with one notice for all of them.
 */
export function useStoreFactoryTexts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      for (const [lang, texts] of Object.entries(await bundledTexts())) {
        if (!texts) continue;
        await callApi(saveTranslationsCall, { query: { lang }, body: withTextsVersion(texts) });
      }
    },
    onSuccess: () => {
      for (const queryKey of [adminKeys.storedTexts(), [...adminKeys.all, 'texts'], adminKeys.locales()]) {
        void client.invalidateQueries({ queryKey });
      }
      toast.show('toast.translations.saved', 'success');
    },
    onError: (error) => toast.show('toast.translations.error', 'error', undefined, refusal(error)),
  });
}

/** The metadata group of a translation set (admin-spec §3 "Translation set"). */
export const metadataOf = (texts: MessageSet): MessageSet => (typeof texts.metadata === 'object' ? texts.metadata : {});

function withTextsVersion(texts: MessageSet): MessageSet {
  return { ...texts, metadata: { ...metadataOf(texts), version: TEXTS_VERSION } };
}

export interface PageDraft {
  heading: string;
  html: string;
}

/** A custom page as served, or null when the language has none yet. */
/** The languages that have a custom page. */
const customPageLocalesQuery = {
  queryKey: adminKeys.pageLocales(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const answer = await callApi(customPageCall, { signal });
    return 'locales' in answer ? answer.locales : [];
  },
  ...onEntry,
};

const customPageQuery = (lang: string) => ({
  queryKey: adminKeys.page(lang),
  queryFn: async ({ signal, client }: { signal: AbortSignal; client: QueryClient }): Promise<PageDraft | null> => {
    // A language without a page is not asked for: the answer would be a 404 the browser logs.
    if (!(await client.fetchQuery(customPageLocalesQuery)).includes(lang)) return null;
    const answer = await nullIfNotFound(callApi(customPageCall, { signal, query: { lang } }));
    return answer && 'html' in answer ? answer : null;
  },
  ...onEntry,
});

export function useCustomPage(lang: string) {
  return useQuery(customPageQuery(lang));
}

export function useCustomPageLocales() {
  return useQuery(customPageLocalesQuery);
}

/** The languages the catalogue has metadata in (index/content_locales). */
const contentLocalesQuery = {
  queryKey: adminKeys.contentLocales(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(contentLocalesCall, { signal })).locales,
  ...onEntry,
};

export function useContentLocales() {
  return useQuery(contentLocalesQuery);
}

/** The languages the server knows, named in `lang` (info/all_languages), to name a code an admin types. */
export function useKnownLanguages(lang: string) {
  return useQuery({
    queryKey: adminKeys.knownLanguages(lang),
    queryFn: async ({ signal }) => (await callApi(allLanguagesCall, { signal, query: { lang } })).languages,
    ...onEntry,
  });
}

/** The server's version, shown beside the portal's (admins are warned of a mismatch, portal-spec §6). */
const backendVersionQuery = {
  queryKey: adminKeys.backendVersion(),
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(checkVersionCall, { signal })).version,
  ...onEntry,
};

export function useBackendVersion() {
  return useQuery(backendVersionQuery);
}

/**
 * What the admin area loads on entry (admin-spec §2 "Admin entry guard"), beside the stored config
 * and texts its draft reads: the index fields, the translation and custom page locales, the DAM
 * collections, the backend version, and each configured language's texts and custom page, so that
 * every section and tab opens on what is already there and edits are told from the loaded copies.
 */
export function useEntryLoads(languages: readonly string[]): void {
  useQueries({
    queries: [
      indexFieldsQuery,
      translationLocalesQuery,
      customPageLocalesQuery,
      contentLocalesQuery,
      damCollectionsQuery,
      backendVersionQuery,
      ...languages.map(textsQuery),
      ...languages.map(customPageQuery),
    ],
  });
}

/**
 * Saves the custom pages of the languages given, each on its own call, with one notice for all of
 * them: singular for one page, plural for several (admin-spec §8). Answers the languages whose page
 * was saved; a page the server refused keeps its draft.
 */
export function useSaveCustomPages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (pages: readonly { lang: string; page: PageDraft }[]) => {
      const results = await Promise.allSettled(
        pages.map(({ lang, page }) => callApi(saveCustomPageCall, { query: { lang }, body: page })),
      );
      const saved: string[] = [];
      const refused: Error[] = [];
      results.forEach((result, i) => {
        const { lang, page } = pages[i]!;
        if (result.status === 'rejected') return void refused.push(result.reason as Error);
        saved.push(lang);
        client.setQueryData(adminKeys.page(lang), page);
        client.setQueryData(adminKeys.pageLocales(), (had: string[] | undefined) =>
          had && !had.includes(lang) ? [...had, lang] : had,
        );
      });
      if (refused.length === 0)
        toast.show(`toast.custom_page.${pages.length > 1 ? 'saved_plural' : 'saved'}`, 'success');
      else
        toast.show(
          `toast.custom_page.${refused.length > 1 ? 'error_plural' : 'error'}`,
          'error',
          undefined,
          refused.length === 1 ? refusal(refused[0]!) : undefined,
        );
      return saved;
    },
  });
}

/**
 * Uploads (or, without a file, deletes) an admin file, or with name "thumbnail" the tile image of
 * that id; large images draw the 1 MB warning.
 */
export function useUploadFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, id, file }: { name: ConfigFileName | 'thumbnail'; id?: string; file: File | null }) => {
      if (file && file.type.startsWith('image/') && file.size > IMAGE_WARNING_BYTES) {
        toast.show('toast.image.too_large', 'warning');
      }
      const form = file ? new FormData() : undefined;
      form?.append('file', file as File);
      return callApi(uploadConfigFileCall, { params: { name }, query: id === undefined ? {} : { id }, form });
    },
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: configKeys.files() });
      toast.show(answer.saved ? 'toast.file.saved' : 'toast.file.deleted', 'success');
    },
    onError: (error) => toast.show('toast.file.error', 'error', undefined, refusal(error)),
  });
}
