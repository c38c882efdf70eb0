import { STORAGE_KEYS } from '../../lib/local-storage-keys';

/** A short fingerprint of the notice's text (FNV-1a): a dismissal holds until the text changes. */
export function noticeFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}

export function isNoticeDismissed(text: string, storage: Storage = localStorage): boolean {
  return storage.getItem(STORAGE_KEYS.dismissedNotice) === noticeFingerprint(text);
}

export function dismissNotice(text: string, storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEYS.dismissedNotice, noticeFingerprint(text));
}
