import { Autocomplete, createFilterOptions, type AutocompleteRenderInputParams } from '@mui/material';
import type { ReactNode } from 'react';
import { ApiError } from '../../lib/apiClient.ts';
import { toast } from '../../lib/toast.ts';
import { useTranslation } from '../../lib/translate.tsx';
import { useCreateCollection } from '../../stores/edit.ts';

interface Collection {
  id: number;
  name: string;
  path: string;
}

/** A collection to choose, or the one the typed name would make. */
type Choice = Collection & { make?: true };

const filter = createFilterOptions<Choice>({ stringify: (c) => c.path || c.name });

/**
 * The collections an edit puts assets into: those of the catalogue, and a new one made from the
 * typed name ("Make collection …", as the upload page makes one), chosen as soon as it exists.
 */
export function CollectionPicker({
  collections,
  values,
  onChange,
  renderInput,
}: {
  collections: readonly Collection[];
  /** The chosen collections' ids. */
  values: readonly string[];
  onChange: (values: string[]) => void;
  renderInput: (params: AutocompleteRenderInputParams) => ReactNode;
}) {
  const { t } = useTranslation();
  const create = useCreateCollection();
  const chosen = collections.filter((c) => values.includes(String(c.id)));
  return (
    <Autocomplete<Choice, true>
      multiple
      options={collections}
      value={chosen}
      loading={create.isPending}
      getOptionLabel={(c) => (c.make ? t('edit.collection_make', { name: c.name }) : c.path || c.name)}
      isOptionEqualToValue={(a, b) => a.id === b.id && a.make === b.make}
      filterOptions={(options, state) => {
        const found = filter(options, state);
        const name = state.inputValue.trim();
        if (name && !options.some((c) => c.name.toLocaleLowerCase() === name.toLocaleLowerCase()))
          found.push({ id: 0, name, path: '', make: true });
        return found;
      }}
      onChange={(_e, value) => {
        const kept = value.filter((c) => !c.make).map((c) => String(c.id));
        const make = value.find((c) => c.make);
        if (!make) {
          onChange(kept);
          return;
        }
        create.mutate(make.name, {
          onSuccess: (made) => onChange([...kept, String(made.id)]),
          onError: (error) =>
            toast.show(
              'edit.collection_failed',
              'error',
              undefined,
              error instanceof ApiError ? error.message : undefined,
            ),
        });
      }}
      renderInput={renderInput}
    />
  );
}
