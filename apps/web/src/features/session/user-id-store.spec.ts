import { STORAGE_KEYS } from '../../lib/local-storage-keys';
import {
  InvalidUserIdError,
  clearStoredUserId,
  hasStoredUserId,
  readStoredUserId,
  storeUserId,
} from './user-id-store';

describe('stored user id', () => {
  beforeEach(() => localStorage.clear());

  it('stores and reads back a positive id', () => {
    storeUserId(42);
    expect(readStoredUserId()).toBe(42);
    expect(hasStoredUserId()).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN, '5'])('rejects %p with "Invalid user ID"', (id) => {
    expect(() => storeUserId(id)).toThrow(new InvalidUserIdError(id));
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('refuses a stored id of 0 or less, and counts it as signed out', () => {
    localStorage.setItem(STORAGE_KEYS.userId, '0');
    expect(() => readStoredUserId()).toThrow('Invalid user ID');
    expect(hasStoredUserId()).toBe(false);
  });

  it('reads null after clearing', () => {
    storeUserId(3);
    clearStoredUserId();
    expect(readStoredUserId()).toBeNull();
  });
});
