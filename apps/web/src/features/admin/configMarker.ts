import { configKeyOf, type ConfigKey } from '@vitrine/contract/config-keys';

const KEY = Symbol('configKey');

/** A setter of one config value that carries the key it writes (the admin draft's `set`). */
export type ConfigSetter = ((value: unknown) => void) & { readonly [KEY]?: string };

/** `write` tagged with the key of `path` (`facets.2.options.preview` → `facets[].options.preview`). */
export function tagSetter(path: string, write: (value: unknown) => void): ConfigSetter {
  return Object.assign(write, { [KEY]: configKeyOf(path) });
}

/**
 * The attribute that says which config key a control edits, for the key-coverage test to find in
 * the rendered admin area: the key named, else the key of the draft setter the control writes with.
 */
export function configMarker(onChange: unknown, key?: ConfigKey): { 'data-config-key'?: string } {
  const written = key ?? (typeof onChange === 'function' ? (onChange as ConfigSetter)[KEY] : undefined);
  return written === undefined ? {} : { 'data-config-key': written };
}

/** The key under the one a setter writes (`infoView.paramsLeft` + `[].field_name`), for editors of whole lists. */
export function keyBelow(onChange: unknown, below: string): ConfigKey | undefined {
  const key = configMarker(onChange)['data-config-key'];
  return key === undefined ? undefined : (`${key}${below}` as ConfigKey);
}
