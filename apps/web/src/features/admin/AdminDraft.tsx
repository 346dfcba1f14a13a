import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { useBlocker } from '../../lib/router.tsx';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { pageOf } from '@vitrine/contract/paths';
import type { MessageSet } from '@vitrine/contract/config';
import { migrateConfig, migrateTexts } from '@vitrine/contract/config-migrations';
import { globalConfigModel, type GlobalConfig } from '@vitrine/contract/global-config';
import { toast } from '../../lib/toast.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { setAt } from './fields.tsx';
import type { Texts } from '../../stores/i18n.ts';
import { tagSetter, type ConfigSetter } from './configMarker.ts';
import {
  useBundledTexts,
  useEntryLoads,
  useSaveConfig,
  useSaveTexts,
  useStoredConfig,
  useStoredTexts,
  useStoreFactoryTexts,
} from './queries.ts';
import { configStatus, type ConfigStatus } from './status.ts';

interface AdminDraft {
  config: GlobalConfig;
  status: ConfigStatus;
  unsaved: boolean;
  update: (change: (config: GlobalConfig) => GlobalConfig) => void;
  /** A setter of one value of the draft by dot path ("global.website_title"). */
  set: (path: string) => ConfigSetter;
  save: () => void;
  /** A config the server now holds (after a rollback): it becomes the draft and the backup. */
  adopt: (config: GlobalConfig) => void;
  /** Editors with unsaved work of their own (translations, custom pages), by name. */
  pending: ReadonlySet<string>;
  markPending: (editor: string, unsaved: boolean) => void;
}

const DraftContext = createContext<AdminDraft | null>(null);

export function useAdminDraft(): AdminDraft {
  const draft = useContext(DraftContext);
  if (!draft) throw new Error('useAdminDraft outside <AdminDraftProvider>');
  return draft;
}

/**
 * Flags an editor's own unsaved work (translations, a custom page) as the config's is flagged:
 * leaving the admin area, another admin tab or the window asks first (admin-spec §4).
 */
export function useUnsavedFlag(editor: string, unsaved: boolean): void {
  const { markPending } = useAdminDraft();
  useEffect(() => {
    markPending(editor, unsaved);
    return () => markPending(editor, false);
  }, [editor, unsaved, markPending]);
}

/**
 * Asks before an action that drops an editor's unsaved work (switching the language it edits):
 * `guard(action)` runs the action at once when nothing is unsaved, else after a yes.
 */
export function useDiscardQuestion(editor: string): { guard: (action: () => void) => void; question: ReactNode } {
  const { t } = useTranslation();
  const { pending } = useAdminDraft();
  const [waiting, setWaiting] = useState<(() => void) | null>(null);
  return {
    guard: (action) => (pending.has(editor) ? setWaiting(() => action) : action()),
    question: (
      <ConfirmDialog
        open={waiting !== null}
        text={t('admin.discard_question')}
        onConfirm={() => {
          waiting?.();
          setWaiting(null);
        }}
        onCancel={() => setWaiting(null)}
      />
    ),
  };
}

type Question = 'reset' | 'adopt' | null;

interface TextUpdate {
  lang: string;
  texts: MessageSet;
}

/** The config keys (dot paths) a draft breaks the config model's rules at; none when it may be saved. */
export function invalidKeys(config: GlobalConfig): string[] {
  const parsed = globalConfigModel.safeParse(config);
  return parsed.success ? [] : [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
}

/** The stored translation sets an upgrade changes, brought to the current texts (admin-spec §4). */
function textUpdates(stored: Record<string, MessageSet>, bundled: Texts): TextUpdate[] {
  return Object.entries(stored).flatMap(([lang, texts]) => {
    const migration = migrateTexts(texts, bundled[lang] ?? {});
    return migration.updated ? [{ lang, texts: migration.texts }] : [];
  });
}

/**
 * The admin area's working copy of the config (admin-spec §2 "Admin entry guard", §4): loaded on
 * entry and brought to the current version; a backup taken then tells whether there are unsaved
 * changes, and leaving the admin area with some asks first.
 */
export function AdminDraftProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const stored = useStoredConfig();
  const storedTexts = useStoredTexts();
  const bundled = useBundledTexts();
  const saveCall = useSaveConfig();
  const saveTexts = useSaveTexts();
  const storeFactoryTexts = useStoreFactoryTexts();
  const [edited, setEdited] = useState<GlobalConfig | null>(null);
  const [baseline, setBaseline] = useState<string | null>(null);
  const [answered, setAnswered] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const markPending = useCallback(
    (editor: string, unsavedWork: boolean) =>
      setPending((now) => {
        if (now.has(editor) === unsavedWork) return now;
        const next = new Set(now);
        if (unsavedWork) next.add(editor);
        else next.delete(editor);
        return next;
      }),
    [],
  );

  // The stored config brought to the current version (admin-spec §4 steps 1–5).
  const migration = useMemo(() => (stored.data ? migrateConfig(stored.data.config) : null), [stored.data]);
  // Texts that cannot be read are not offered for adoption; the config question still comes.
  const texts = useMemo(
    () =>
      storedTexts.isError || bundled.isError
        ? []
        : storedTexts.data && bundled.data
          ? textUpdates(storedTexts.data, bundled.data)
          : null,
    [storedTexts.data, storedTexts.isError, bundled.data, bundled.isError],
  );
  const configChanged = migration !== null && (migration.updated || migration.merged);
  const config = edited ?? migration?.config ?? null;
  const backup = baseline ?? (migration ? JSON.stringify(migration.config) : '');
  // Nothing stored at all: the server serves the bundled texts (admin-spec §4 step 6).
  const noTexts = storedTexts.data !== undefined && Object.keys(storedTexts.data).length === 0;
  const noConfig = stored.data?.config === null;
  const question: Question =
    !migration || !texts || answered
      ? null
      : noConfig || noTexts
        ? 'reset'
        : configChanged || texts.length > 0
          ? 'adopt'
          : null;

  useEffect(() => {
    if (migration && texts && stored.data?.config && !noTexts && !configChanged && texts.length === 0) {
      toast.show('admin.upgrade.no_changes', 'success');
    }
  }, [migration, texts, noTexts, configChanged, stored.data]);

  useEffect(() => {
    if (stored.isError) toast.show('toast.config.error', 'error');
  }, [stored.isError]);

  const current = config ?? defaultGlobalConfig;
  useEntryLoads(config ? config.visibleLocales.map((l) => l.lang) : []);
  const unsaved = config !== null && JSON.stringify(config) !== backup;

  const saveConfig = useCallback(
    (next: GlobalConfig) =>
      saveCall.mutate(next, {
        onSuccess: (saved) => {
          setEdited(saved);
          setBaseline(JSON.stringify(saved));
        },
      }),
    [saveCall],
  );

  const status = configStatus(stored, saveCall.isPending);
  const value = useMemo<AdminDraft>(
    () => ({
      config: current,
      status,
      unsaved,
      update: (change) => setEdited((c) => change(c ?? migration?.config ?? defaultGlobalConfig)),
      set: (path) =>
        tagSetter(path, (v) => setEdited((c) => setAt(c ?? migration?.config ?? defaultGlobalConfig, path, v))),
      save: () => {
        // The server would refuse what the schema refuses: say which fields, and post nothing.
        const invalid = invalidKeys(current);
        if (invalid.length > 0) toast.show('toast.config.invalid', 'error', { keys: invalid.join(', ') });
        else saveConfig(current);
      },
      adopt: (next) => {
        setEdited(next);
        setBaseline(JSON.stringify(next));
      },
      pending,
      markPending,
    }),
    [current, migration, status, unsaved, saveConfig, pending, markPending],
  );

  // The config draft outlives the admin tabs; an editor's own unsaved work ends with its tab.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname &&
      ((unsaved && pageOf(nextLocation.pathname) !== 'admin') || pending.size > 0),
  );
  const leavingArea = blocker.location !== undefined && pageOf(blocker.location.pathname) !== 'admin';
  useEffect(() => {
    if (!unsaved && pending.size === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved, pending]);

  const answer = (yes: boolean) => {
    if (yes && question === 'reset') {
      // Only what is missing: a stored config or stored texts stay as they are.
      if (noConfig) saveConfig(defaultGlobalConfig);
      if (noTexts) storeFactoryTexts.mutate();
    }
    if (yes && question === 'adopt') {
      if (configChanged) saveConfig(current);
      for (const update of texts ?? []) saveTexts.mutate(update);
    }
    setAnswered(true);
  };

  return (
    <DraftContext.Provider value={value}>
      {children}
      {/* Whether the entry's upgrade check has decided (a question below, or none): for scripts driving the area. */}
      <span hidden data-admin-upgrade-check={(migration && texts) || stored.isError ? 'done' : 'waiting'} />
      <Dialog open={question !== null} aria-labelledby="admin-upgrade-title">
        <DialogTitle id="admin-upgrade-title">{t('admin.confirm.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t(
              question === 'adopt'
                ? 'admin.upgrade.adopt_question'
                : noConfig
                  ? 'admin.upgrade.reset_question'
                  : 'admin.upgrade.reset_texts_question',
            )}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => answer(false)}>{t('admin.confirm.no')}</Button>
          <Button variant="contained" onClick={() => answer(true)}>
            {t(question === 'reset' ? 'admin.upgrade.reset' : 'admin.upgrade.adopt')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={blocker.state === 'blocked'} aria-labelledby="admin-unsaved-title">
        <DialogTitle id="admin-unsaved-title">{t('admin.unsaved')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t(leavingArea ? 'admin.leave_question' : 'admin.discard_question')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => blocker.reset?.()}>
            {t('admin.stay')}
          </Button>
          <Button onClick={() => blocker.proceed?.()}>{t('admin.leave')}</Button>
        </DialogActions>
      </Dialog>
    </DraftContext.Provider>
  );
}
