import { useSyncExternalStore } from 'react';

/**
 * Notices shown as toasts (portal-spec §8, admin-spec §8). Anything may raise one; the shell shows
 * them through <ToastHost/>. `key` is a text key, translated when shown, with `params` for
 * placeholders.
 */
export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface Toast {
  id: number;
  key: string;
  severity: ToastSeverity;
  params?: Record<string, string | number>;
  /** The server's own words for a refused change, shown under the notice (they name what is wrong). */
  detail?: string;
  /** Read out when the screen reader is free (a status), not at once (an alert). */
  polite?: boolean;
  /** One thing to do about it (an edit's "Undo"): a button in the notice, `key` its text key. */
  action?: ToastAction;
}

export interface ToastAction {
  key: string;
  run: () => void;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export const toast = {
  show(
    key: string,
    severity: ToastSeverity = 'info',
    params?: Record<string, string | number>,
    detail?: string,
    polite?: boolean,
  ): number {
    const id = nextId++;
    toasts = [...toasts, { id, key, severity, params, ...(detail ? { detail } : {}), ...(polite ? { polite } : {}) }];
    emit();
    return id;
  },
  /** A notice with one action, such as "Undo" after an edit. */
  offer(key: string, params: Record<string, string | number> | undefined, action: ToastAction): number {
    const id = nextId++;
    toasts = [...toasts, { id, key, severity: 'success', params, polite: true, action }];
    emit();
    return id;
  },
  dismiss(id: number): void {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  },
  clear(): void {
    toasts = [];
    emit();
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}
