import { useCallback, useEffect, useMemo, useRef } from 'react';
import { routePath } from '@vitrine/contract/paths';
import { useNavigate, useParams, useSearchParams } from '../../lib/router.tsx';
import { toast } from '../../lib/toast.ts';
import { useOnChange } from '../../lib/useOnChange.ts';
import { returnAfterLogin, useSession } from '../../stores/session.ts';
import {
  textSearchPath,
  toSelections,
  useSearchInput,
  type SuggestionFieldConfig,
  type SuggestionOption,
} from '../../stores/searchInput.ts';
import { colourOf, similarOf, withRouteTerms, wordsOf } from './colour.ts';
import type { FacetDef } from './facets.ts';
import { parseSearchRoute, type SearchRoute } from './searchState.ts';

/** The route's state; '+{field}' of a sidebar facet is a filter, any other a suggestion. */
export function useRouteState(defs: FacetDef[]): SearchRoute {
  const { query } = useParams();
  const [params] = useSearchParams();
  const facetNames = useMemo(() => new Set(defs.map((d) => d.field)), [defs]);
  const key = `${query ?? ''}?${params.toString()}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for query and params
  return useMemo(() => parseSearchRoute(query, params, (f) => facetNames.has(f)), [key, facetNames]);
}

/**
 * A link to chosen assets (`/search/*?id=…`, portal-spec §4 "Shared links"): when some of them are
 * hidden from the visitor it says so (part_visible); when all are, it says so too (none_visible)
 * and a guest is asked to log in, coming back here afterwards. Once per link.
 */
export function useSharedIdsNotice(route: SearchRoute, total: number | undefined, path: string): void {
  const navigate = useNavigate();
  const guest = useSession().session?.user === null;
  const told = useRef<string | null>(null);
  const onlyIds = route.ids.length > 0 && !route.text && !route.filters.length && !route.suggestions.length;
  useEffect(() => {
    if (!onlyIds || total === undefined || total >= route.ids.length || told.current === path) return;
    told.current = path;
    if (total > 0) {
      toast.show('toast.open_share.part_visible', 'info');
      return;
    }
    toast.show('toast.open_share.none_visible', 'info');
    if (guest) {
      returnAfterLogin(path);
      void navigate(routePath({ page: 'login' }));
    }
  }, [onlyIds, total, route.ids.length, path, guest, navigate]);
}

const routeChips = (r: SearchRoute): SuggestionOption[] =>
  r.suggestions.flatMap((s) => s.values.map((v) => ({ field: s.field_name, value: v, label: v })));

/**
 * The search input of the search page (portal-spec §2 "Search"): its text and chosen suggestions
 * follow the route (`path` is the route's address); a chosen suggestion read back from the address
 * names its value only, and reads as the portal labels that value (a colour's name, a collection's
 * name) once `valueLabel` knows it. The text is the route's words without its colour and look-alike
 * terms (issue #52): they are tags, not query syntax the visitor never typed.
 */
export function useRouteInput(
  route: SearchRoute,
  path: string,
  options: {
    t: (key: string) => string;
    lang: string;
    fallbackLang: string;
    configuredFields: readonly SuggestionFieldConfig[];
    valueLabel: (field: string, value: string) => string;
  },
) {
  const { valueLabel, ...inputOptions } = options;
  const navigate = useNavigate();
  const { text, setText, chosen, setChosen, groups, labelOf } = useSearchInput({
    ...inputOptions,
    initialText: wordsOf(route.text),
    initialChosen: () => routeChips(route),
  });
  useEffect(() => {
    setChosen((chosen) => {
      const named = chosen.map((c) => (c.label === c.value ? { ...c, label: valueLabel(c.field, c.value) } : c));
      return named.some((c, i) => c.label !== chosen[i]?.label) ? named : chosen;
    });
  }, [valueLabel, setChosen]);
  useOnChange(path, () => {
    setText(wordsOf(route.text));
    setChosen(routeChips(route));
  });
  const routeText = route.text;
  /**
   * Submitting goes to the route of the text and the chosen suggestions (portal-spec §4 "Search"),
   * with the chosen colour and look-alike terms kept; a term the visitor typed takes its place and
   * becomes the tag, so the box keeps the words alone (also when the route stays the same and does
   * not set them).
   */
  const submit = useCallback(() => {
    if (colourOf(text) || similarOf(text)) setText(wordsOf(text));
    void navigate(textSearchPath(withRouteTerms(text, routeText), toSelections(chosen)));
  }, [text, chosen, routeText, setText, navigate]);
  return { text, setText, chosen, setChosen, groups, labelOf, submit };
}
