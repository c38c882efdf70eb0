import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../lib/local-storage-keys';

/** SPEC §5: a user id of 0 or less (or not a whole number) is never accepted. */
export class InvalidUserIdError extends Error {
  constructor(readonly value: unknown) {
    super('Invalid user ID');
    this.name = 'InvalidUserIdError';
  }
}

export function isValidUserId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * The stored user id: null when none is stored. A stored value that is not a positive whole number
 * throws InvalidUserIdError, so no call goes out under a bogus New-Api-User header.
 */
export function readStoredUserId(storage: Storage = localStorage): number | null {
  const raw = storage.getItem(STORAGE_KEYS.userId);
  if (raw === null) return null;
  const id = Number(raw);
  if (!isValidUserId(id)) throw new InvalidUserIdError(raw);
  return id;
}

export function storeUserId(id: unknown, storage: Storage = localStorage): void {
  if (!isValidUserId(id)) throw new InvalidUserIdError(id);
  storage.setItem(STORAGE_KEYS.userId, String(id));
  notify();
}

export function clearStoredUserId(storage: Storage = localStorage): void {
  storage.removeItem(STORAGE_KEYS.userId);
  notify();
}

/** Whether a (valid) user id is stored; an invalid one counts as signed out. */
export function hasStoredUserId(): boolean {
  try {
    return readStoredUserId() !== null;
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === STORAGE_KEYS.userId && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Re-renders when the stored user id changes, in this tab or another. */
export function useIsSignedIn(): boolean {
  return useSyncExternalStore(subscribe, hasStoredUserId);
}
